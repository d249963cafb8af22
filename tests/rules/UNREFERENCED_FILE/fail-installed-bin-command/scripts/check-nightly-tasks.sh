#!/bin/sh
echo check-nightly-tasks
