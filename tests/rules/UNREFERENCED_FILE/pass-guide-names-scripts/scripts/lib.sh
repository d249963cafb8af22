say() { echo "$1"; }
