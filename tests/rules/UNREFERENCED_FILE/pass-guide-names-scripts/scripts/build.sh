#!/bin/sh
. ./lib.sh
source "$(dirname "$0")/env.sh"
