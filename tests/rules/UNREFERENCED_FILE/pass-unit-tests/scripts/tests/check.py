# unit test of diff (kept import-free: pytest collects fixture folders)
