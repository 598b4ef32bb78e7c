"""One Minute War: the double-sided sheet with its fold-and-cut soldier card."""
