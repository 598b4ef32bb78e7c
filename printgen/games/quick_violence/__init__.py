"""Quick Violence: the rulebook whose measuring page is the paper itself.

The game object is in `game.py` (`GAME`); its definition and rules templates sit beside the code.
"""
