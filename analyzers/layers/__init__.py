"""LLM layers: the judge (layer 2) and, later, Monte Carlo (layer 3). Each returns layer scores that
`scoring` blends exactly as it blends the static layer; nothing here prints or reads the environment."""
