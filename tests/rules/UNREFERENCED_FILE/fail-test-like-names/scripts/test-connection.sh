#!/usr/bin/env bash
curl -fsS http://localhost:8080/health
