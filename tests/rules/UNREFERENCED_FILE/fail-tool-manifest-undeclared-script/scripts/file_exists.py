print('exists')
