#!/bin/sh
read -p "Project name: " name
echo "$name"
