"""The club server: one package per domain, imports pointing one way (lila's modules).

From the bottom up; a package may import those above it in this list, never
those below (``tests/server/test_architecture.py`` checks it):

- base modules: ``club`` (what one app shares), ``events`` (the club's domain
  events), ``pubsub`` (frames between processes), ``errors``, ``settings``,
  ``protocol``, ``web``, ``collector``;
- ``accounts``: registration, sessions, CSRF, avatars, moderation;
- ``notify``: stored notifications pushed live;
- ``standings``: ratings, play-bans, what a finished game leaves behind;
- ``relations``: friends and blocks, presence, profiles;
- ``chat``: the lobby's and the games' rooms;
- ``money``: escrow, the house, the shop, the wallet;
- ``rounds``: one owner per live game, its socket, spectating;
- ``lobby``: requests, challenges, rematches, the lobby socket;
- ``bots``: the bot host;
- ``app``: wires them, and their subscriptions to each other's events.

docs/architecture.md draws the packages and the events between them.
"""
