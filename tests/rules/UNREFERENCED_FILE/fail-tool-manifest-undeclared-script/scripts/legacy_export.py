print('legacy')
