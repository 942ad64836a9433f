"""What each CLI verb does, kept apart from argument parsing."""
