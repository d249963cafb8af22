#!/bin/sh
# Set your key first: export ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
: "${ANTHROPIC_API_KEY:?set ANTHROPIC_API_KEY (it looks like sk-ant-...)}"
export OPENAI_API_KEY="${OPENAI_API_KEY:-sk-...}"
curl -H "x-api-key: $ANTHROPIC_API_KEY" https://api.example.com/deploy
