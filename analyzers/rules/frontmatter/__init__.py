"""Rules of the frontmatter family."""
