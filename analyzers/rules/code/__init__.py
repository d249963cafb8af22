"""Rules of the code family."""
