"""The bot host: the club's bots as players (the engines are ``sheshbesh.bots``).

Owns the roster (``roster``), the host that creates the bot accounts, takes
requests for them and thinks their moves in worker processes (``host``), the
reviewer that reviews finished games with gnubg in workers of its own and
stores each review once (``reviews``), the worker pools both use
(``workers``), and the routes that list the bots and review a game
(``routes``). It
hears of new requests and of every change of a round through the club's
events, and acts through the lobby's ``accept`` and the round's ``act``, as a
person does.

May import: ``lobby``, ``rounds``, ``money``, ``accounts`` and the base
modules. Nothing imports it but ``app.py``.
"""
