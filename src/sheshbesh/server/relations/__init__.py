"""Relations between players (lila's ``relation``): friends and blocks, presence, profiles.

Owns friend requests, friendships and blocks (``friends``), who is online or
playing and the player's own socket ``/ws/me`` (``presence``), and the profile
page (``profiles``: results, ratings, play-ban, how the viewer stands toward
the player) with his games a page at a time (``history``: two-player games and
the chouette tables he sat at).

May import: ``standings``, ``notify``, ``accounts`` and the base modules.
Chat, the lobby and the rounds ask it whether two players block each other
and who is online; it never imports them.
"""
