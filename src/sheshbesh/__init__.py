"""sheshbesh: an online club for the backgammon family and International draughts."""

__version__ = "0.1.0"
