print('fbx')
