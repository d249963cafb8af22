#!/bin/sh
ffmpeg -i "$1/%04d.png" out.mp4
