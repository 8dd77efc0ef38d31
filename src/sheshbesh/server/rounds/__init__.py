"""Rounds: one owner per live game (lila's ``round``).

Owns a game's life once it exists: the tables over ``sheshbesh.play``
(``tables``), the :class:`round.Round` that handles one command at a time and
this process's :class:`round.Rounds` (``round``), storing an applied action with
its escrow and result (``store``), seating two players at a new table
(``start``: the lobby's way in), the game socket (``channel``), spectating and
records (``spectate``), clocks and timeouts (in the round's timer).

What a game's change sets off elsewhere is emitted on the club's events
(``GameOver`` inside the last move's transaction; ``RoundMoved``,
``RoundLoaded`` and ``TurnAwaits`` after the commit) for the packages that
care: ratings, play-bans, notifications, presence, the lobby, the bots.

May import: ``money`` (escrow), ``chat`` (the room's chat over the game
socket), ``standings`` (ratings shown beside names), ``accounts`` and the base
modules. Never the lobby, the bots, notify or relations.
"""
