#!/bin/sh
echo gather
