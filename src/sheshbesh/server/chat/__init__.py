"""Chat: the lobby's room and each game's players' and spectators' rooms.

Owns the rooms and who may read or write them (``rooms``), flood limits and
mutes (``flood``), and the readers on sockets: history, blocked writers hidden,
lines said over a socket (``readers``). The game socket (``rounds.channel``)
and the lobby socket carry chat frames through ``readers``.

May import: ``relations`` (blocks), ``accounts`` and the base modules.
"""
