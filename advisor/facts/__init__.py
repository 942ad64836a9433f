"""What a host is: typed facts built from whichever command outputs exist."""
