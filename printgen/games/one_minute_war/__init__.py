"""One Minute War: the double-sided sheet with its fold-and-cut soldier card.

The game object is in `game.py` (`GAME`); its definition and rules templates sit beside the code.
"""
