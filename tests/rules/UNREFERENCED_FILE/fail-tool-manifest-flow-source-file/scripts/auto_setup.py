print('setup')
