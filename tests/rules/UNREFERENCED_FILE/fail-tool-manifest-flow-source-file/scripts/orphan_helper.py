print('helper')
