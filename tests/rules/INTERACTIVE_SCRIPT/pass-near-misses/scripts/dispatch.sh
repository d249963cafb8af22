#!/bin/bash
# notes.sh-style dispatcher: `read` and `get|r` are case patterns, not the read command
CMD="$1"
shift
case "$CMD" in
  read)
    osascript -e "tell application \"Notes\" to get note \"$1\""
    ;;
  read|r)
    echo "alias"
    ;;
  ( read )
    echo "parenthesised pattern"
    ;;
esac
