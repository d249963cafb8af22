"""Future helper: summarise an episode's profile.

Placeholder — wired up in a follow-up PR."""
