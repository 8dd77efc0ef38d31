"""The lobby: where games are asked for and begin.

Owns game requests (``requests``: post, list, cancel, accept, private
challenges, the one rule :func:`requests.can_accept`), rematches
(``rematch``), and the lobby socket with its "now playing" list (``socket``).
A request becomes a game through ``rounds.start``, the rounds' interface for
seating two players.

May import: ``rounds``, ``money``, ``chat``, ``relations``, ``standings``,
``notify``, ``accounts`` and the base modules. Only the bot host (``bots``)
and ``app.py`` import the lobby.
"""
