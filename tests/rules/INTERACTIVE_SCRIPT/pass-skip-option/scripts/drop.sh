#!/bin/bash
case "$1" in
  -y) YES=1 ;;
esac
[ -n "$YES" ] || read -p "Drop the table? " ans
