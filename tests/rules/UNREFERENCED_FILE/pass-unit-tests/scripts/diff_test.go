package diff
