"""The server's tables (``server/rounds/tables.py``): a game value and what the room asks of it."""

from __future__ import annotations

import pytest

from sheshbesh.play import race
from sheshbesh.play.race import RaceGame
from sheshbesh.server.rounds.tables import RaceTable


def test_a_table_generates_its_moves_once_however_often_it_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move asked the game for its legal actions three or four times (parsing the action,
    the menu sent, the cube-cover check, the other process's fold), each a full move
    generation; the table's state never changes, so it asks once, and builds the menu's
    frames once (the cover check and the mover's menu read the same list)."""
    calls: list[RaceGame] = []
    generate = RaceGame.legal_actions

    def counted(game: RaceGame) -> list[object]:
        calls.append(game)
        return list(generate(game))

    game = race.from_created({"variant": "backgammon", "options": {}})
    monkeypatch.setattr(RaceGame, "legal_actions", counted)
    table = RaceTable(game)
    first = table.legal()
    assert table.offered(table.state.to_act or race.Side.WHITE) is not None
    assert table.legal() is first
    assert len(calls) == 1
    RaceTable(game).legal()  # another table of the same game asks for itself
    assert len(calls) == 2
