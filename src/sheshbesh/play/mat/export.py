"""Writing a match or money-game log as ``.mat`` text, as gnubg's ``export match mat`` does.

This half reads only our event logs: it follows each game through
:func:`~sheshbesh.play.race.evolve`, turns rolls, plays and cube actions into
column records, and lays them out in gnubg's columns. Reading a file back is
:mod:`.parse` and :mod:`.import_`; the layout itself is described in :mod:`sheshbesh.play.mat`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sheshbesh.games.race import Position, Side, Step

from ..options import RaceOptions
from ..race import Event, RaceGame, evolve, from_created
from .common import MatError, check_variant

COLUMN = 28
SCORE_COLUMN = 31


@dataclass(frozen=True, slots=True)
class _Cell:
    """One column entry of a move line."""

    side: Side
    text: str
    wins: bool = False


@dataclass(slots=True)
class _GameLog:
    created: Event
    score: tuple[int, int]
    events: list[Event] = field(default_factory=list)


def export_mat(
    created: Event,
    events: Iterable[Event],
    *,
    names: tuple[str, str] = ("White", "Black"),
    date: str | None = None,
) -> str:
    """The ``.mat`` text of a match log or of a money game's log, finished or not.

    ``names`` are White's and Black's; ``date`` (``"2026.11.22"``) becomes the
    ``EventDate`` header. Raises :class:`MatError` for variants gnubg does not play.

    >>> from sheshbesh.play import actions as act
    >>> class Dice:
    ...     def roll(self, nonce, count):
    ...         return act.Rolled((3, 1))
    >>> game, created = RaceGame.create("backgammon")
    >>> opening = game.apply(act.Start(), Dice())
    >>> play = opening.game.apply(act.PlayText(Side.WHITE, "8/5 6/5"))
    >>> print(export_mat(created, opening.events + play.events), end="")
    <BLANKLINE>
     0 point match
    <BLANKLINE>
     Game 1
     White : 0                      Black : 0
      1) 31: 8/5 6/5
    <BLANKLINE>
    """
    events = list(events)
    kind = created.get("type")
    if kind == "match_created":
        variant, length = created["variant"], int(created["length"])
        options = RaceOptions(**created["options"])
        games, forfeit = _match_games(created, events)
    elif kind == "created":
        variant, length = created["variant"], 0
        options = RaceOptions(**created["options"])
        games, forfeit = [_GameLog(created, (0, 0), events)], _forfeit_in_game(events)
    else:
        raise MatError(f"not a game or match log: the first event is {kind!r}")
    check_variant(variant)
    bodies = []
    auto_doubles = 0
    for number, log in enumerate(games, 1):
        cells, autos = _cells(log.created, log.events)
        auto_doubles += autos
        bodies += [f" Game {number}", _score_line(names, log.score), *_rows(cells), ""]
    header = _header(variant, options, length, auto_doubles, forfeit, date)
    return "\n".join([*header, "", f" {length} point match", "", *bodies]) + "\n"


def _header(
    variant: str, options: RaceOptions, length: int, autos: int, forfeit: Side | None,
    date: str | None,
) -> list[str]:  # fmt: skip
    tags = []
    if date is not None:
        tags.append(("EventDate", date))
    if variant != "backgammon":
        tags.append(("Variant", variant))
    if not length:
        default = RaceOptions.defaults(variant)
        for key, value, usual in (
            ("Jacoby", options.jacoby, default.jacoby),
            ("Beaver", options.beavers, default.beavers),
        ):
            if value != usual:
                tags.append((key, "On" if value else "Off"))
    if autos:
        tags.append(("AutoDoubles", str(autos)))
    if forfeit is not None:
        tags.append(("Forfeit", forfeit.name.title()))
    return [f'; [{key} "{value}"]' for key, value in tags]


def _match_games(created: Event, events: list[Event]) -> tuple[list[_GameLog], Side | None]:
    """Split a match log into its games, each with the score before it."""
    games = [_GameLog(created["created"], (0, 0))]
    score = (0, 0)
    forfeit = None
    for event in events:
        kind = event["type"]
        if kind == "game_finished":
            score = (int(event["score"][0]), int(event["score"][1]))
        elif kind == "game_started":
            games.append(_GameLog(event["created"], score))
        elif kind == "match_finished":
            if event["result"]["reason"] == "BG-20":
                forfeit = Side.from_letter(event["result"]["winner"]).other
        else:
            games[-1].events.append(event)
    return games, forfeit


def _forfeit_in_game(events: list[Event]) -> Side | None:
    timeouts = [e for e in events if e["type"] == "timeout"]
    return Side.from_letter(timeouts[0]["side"]) if timeouts else None


def _cells(created: Event, events: list[Event]) -> tuple[list[_Cell], int]:
    """One game's records, in order, and how many automatic doubles it had."""
    game = from_created(created)
    cells: list[_Cell] = []
    rolled: tuple[Side, tuple[int, int]] | None = None
    autos = 0
    for event in events:
        kind = event["type"]
        side = Side.from_letter(event["side"]) if event.get("side") else None
        before, game = game, evolve(game, event)
        if kind == "opening" and event["first_dice"]:
            rolled = Side.from_letter(event["starter"]), _pair(event["first_dice"])
        elif kind == "rolled" and not event.get("ignored"):
            assert side is not None
            rolled = side, _pair(event["dice"])
        elif kind in ("played", "passed"):
            assert rolled is not None
            mover, dice = rolled
            steps = _route(before.position, dice, game.position) if kind == "played" else ()
            cells.append(_Cell(mover, _roll_text(dice, steps)))
            rolled = None
        elif kind == "auto_double":
            autos += 1
        elif kind == "doubled" and side is not None:
            cells.append(_Cell(side, f" Doubles => {event['cube']}"))
        elif kind == "beavered" and side is not None:
            cells.append(_Cell(side, f" Beavers => {game.cube.value}"))
        elif kind in ("taken", "beaver_taken") and side is not None:
            cells.append(_Cell(side, " Takes"))
        elif kind == "dropped" and side is not None:
            cells.append(_Cell(side, " Drops"))
        elif kind == "finished":
            cells += _unplayed(before, rolled)
            rolled = None
            result = game.result
            if result is not None and result.winner is not None:
                points = result.points
                plural = "" if points == 1 else "s"
                cells.append(_Cell(result.winner, f" Wins {points} point{plural}", wins=True))
    cells += _unplayed(game, rolled)
    return _implied_beaver_takes(cells), autos


def _unplayed(game: RaceGame, rolled: tuple[Side, tuple[int, int]] | None) -> list[_Cell]:
    """A roll not played (resigned, timed out, or still on the board).

    gnubg reads a roll with no move as "just rolled" only when there is a choice
    of plays; with one legal play it would play it. So that roll is left out.
    """
    if rolled is None or game.turn is None or len(game.turn.plays) < 2:
        return []
    return [_Cell(rolled[0], _roll_text(rolled[1], ()))]


def _implied_beaver_takes(cells: list[_Cell]) -> list[_Cell]:
    """gnubg reads the doubler's next roll after ``Beavers`` as his take; it writes none."""
    kept = []
    for index, cell in enumerate(cells):
        after = cells[index + 1] if index + 1 < len(cells) else None
        if (
            cell.text == " Takes"
            and index > 0
            and cells[index - 1].text.startswith(" Beavers")
            and after is not None
            and after.side is cell.side
            and after.text[0].isdigit()
        ):
            continue
        kept.append(cell)
    return kept


def _route(position: Position, dice: tuple[int, int], after: Position) -> tuple[Step, ...]:
    for play in position.legal_plays(dice):
        if play.after == after:
            return play.steps
    raise MatError(f"no play with {dice[0]}-{dice[1]} leads to {after.text()}")


def _roll_text(dice: tuple[int, int], steps: tuple[Step, ...]) -> str:
    moves = "".join(f"{s.src}/{s.dst}{'*' if s.hit else ''} " for s in steps)
    return f"{max(dice)}{min(dice)}: {moves}"


def _score_line(names: tuple[str, str], score: tuple[int, int]) -> str:
    left = f"{_name(names[0], 'White')} : {score[0]}"
    return f" {left.ljust(SCORE_COLUMN - 1)} {_name(names[1], 'Black')} : {score[1]}"


def _name(name: str, default: str) -> str:
    """A name gnubg reads back: one line, no colon, at most 31 characters."""
    cleaned = " ".join(name.replace(":", " ").split())[:31]
    return cleaned or default


def _rows(cells: list[_Cell]) -> list[str]:
    """Move lines: White's record opens a line, Black's fills the right column."""
    rows: list[list[_Cell | None]] = []
    for cell in cells:
        if cell.side is Side.WHITE or not rows or rows[-1][1] is not None:
            rows.append([None, None])
        rows[-1][cell.side] = cell
    lines = []
    number = 0
    for left, right in rows:
        first = left or right
        assert first is not None
        if first.wins:
            prefix = " " * 5
        else:
            number += 1
            prefix = f"{number:3d}) "
        if right is None:
            assert left is not None
            lines.append(prefix + (left.text if left.wins else left.text.ljust(COLUMN)))
        else:
            lines.append(prefix + (left.text if left else "").ljust(COLUMN) + right.text)
    return [line.rstrip() for line in lines]


def _pair(dice: list[int]) -> tuple[int, int]:
    return int(dice[0]), int(dice[1])


def export_record(
    record: dict[str, Any], *, white: str = "White", black: str = "Black", date: str | None = None
) -> str:
    """``sheshbesh export``: the ``.mat`` text of a game or match record."""
    return export_mat(record["created"], record["events"], names=(white, black), date=date)
