#!/bin/sh
echo run-nightly-task
