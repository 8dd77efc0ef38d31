"""Self-play trained nets for the race games without an engine (issue 19, docs/nets.md).

Pure numpy and importable without the server: :mod:`.encode` (a position as
inputs), :mod:`.net` (the network, TD(λ), ``.npz`` files), :mod:`.train`
(self-play) and :mod:`.bot` (the net as a bot, 0-ply and 1-ply).
"""
