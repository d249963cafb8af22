#!/bin/sh
echo pause-nightly-task
