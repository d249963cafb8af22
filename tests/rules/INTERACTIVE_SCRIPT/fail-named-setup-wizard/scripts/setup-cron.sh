#!/bin/bash
read -p "Which hour should the check run? " hour
echo "0 $hour * * * $(pwd)/scripts/track.sh" | crontab -
