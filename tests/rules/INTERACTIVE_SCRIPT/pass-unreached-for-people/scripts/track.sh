#!/bin/sh
ls tracks
