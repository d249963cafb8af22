from validators import check

check()
