"""Quick Violence: the rulebook whose measuring page is the paper itself."""
