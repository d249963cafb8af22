"""Rules of the name family."""
