"""Rules of the body family."""
