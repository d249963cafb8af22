#!/bin/bash
if [ -t 0 ]; then
  read -p "Continue? " answer
fi
