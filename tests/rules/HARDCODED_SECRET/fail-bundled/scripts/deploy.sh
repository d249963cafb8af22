#!/bin/sh
# deploy to staging
export ANTHROPIC_API_KEY=sk-ant-api03-u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8dKLzd
curl -H "x-api-key: $ANTHROPIC_API_KEY" https://api.example.com/deploy
