"""Claude Code rules: what its frontmatter values mean (target `claude-code`)."""
