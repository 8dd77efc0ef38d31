"""A player's standing in the club: ratings per variant and play-bans.

Owns the ratings (``ratings``: FIBS for the backgammon family, Glicko-2 for
draughts), the offences and play-bans for abandoned games (``playbans``), and
what a finished game leaves behind (``aftermath``: subscribed to the rounds'
``GameOver`` event, in the game's own transaction), and the operator's reports
of young accounts losing FUN to one account (``farming``, on the same event).

May import: ``notify``, ``accounts`` and the base modules. Read by relations
(profiles), lobby and rounds (ratings shown beside names), never the reverse.
"""
