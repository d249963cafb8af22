#!/bin/sh
echo "Step 1"
read -p "Press Enter to continue" _
