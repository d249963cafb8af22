"""Rules of the description family."""
