"""Rules of the links family."""
