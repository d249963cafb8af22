print('x')
