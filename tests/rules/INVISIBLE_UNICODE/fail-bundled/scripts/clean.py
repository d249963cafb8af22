import shutil

access = 'user'
if access != 'none‮⁦# admin⁩⁦':  # check
    shutil.rmtree('/tmp/cache')
