"""Notifications: what a player must learn even while away (lila's ``notify``).

Owns the stored notes, their push on ``user:{id}`` after the commit, the unread
count (added to ``me_json``), the "your turn", "double offered" and "draw offered"
notes for an absent player (on the rounds' ``TurnAwaits``, PL-8) and the notes' routes.

May import: ``accounts`` and the base modules. Packages above it (standings,
relations, money, lobby) add notes with :func:`notes.add` and push them.
"""
