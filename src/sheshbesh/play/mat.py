"""The gnubg/JellyFish ``.mat`` text format: export a match or a money game, import one.

The layout is the one GNU Backgammon writes (``export match mat``) and reads
(``import mat``); it was learnt from files gnubg exported, and our files are
checked by importing them into gnubg (tests/play/test_mat.py)::

    ; [EventDate "2026.11.22"]

     3 point match

     Game 1
     Ann : 0                        Bob : 0
      1)                             31: 8/5 6/5
      2) 64: 24/18 18/14              Doubles => 2
      3)  Drops                       Wins 1 point

     Game 2
     Ann : 0                        Bob : 1
      1) 31: 8/5 6/5
          Wins 2 points

White is the left column (gnubg's player 0), Black the right one. Each move
line holds one record per column: ``DD: moves`` for a roll (higher die first,
nothing after the colon for a roll that cannot be played), ``Doubles => N``,
``Beavers => N``, ``Takes``, ``Drops`` and, last, ``Wins N points`` for the
winner. Moves are single die steps in the mover's numbers, ``25`` the bar,
``0`` off, ``*`` after a hit (what gnubg writes, so its importer never has to
choose a route). A money game is a ``0 point match`` of one game; gnubg finds
the Crawford game from the score lines alone.

The format cannot say everything our games can. Comment lines in the header
carry the rest for our importer (gnubg keeps them as a match comment):
``[Variant "takhte_nard"]``, ``[Jacoby "On"]`` and ``[Beaver "On"]`` for money
tables, ``[AutoDoubles "1"]`` (BG-15: ties of the opening roll are not in the
format), and ``[Forfeit "Black"]`` when a player timed out or left (PL-7, BG-20).
A resignation is a ``Wins`` line in a game that is not over, as in gnubg.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sheshbesh.games.race import Position, Side, Step

from . import actions as act
from .errors import PlayError
from .match import Match, MatchStep, replay_match
from .options import RaceOptions
from .race import Event, Phase, RaceGame, evolve, from_created, replay
from .record import make_record

MAT_VARIANTS = ("backgammon", "takhte_nard")
"""The variants gnubg plays: backgammon's board, moves and cube (TN-1)."""

COLUMN = 28
SCORE_COLUMN = 31


class MatError(PlayError):
    """A log that ``.mat`` cannot hold, or a ``.mat`` text that does not replay (with its line)."""


Log = tuple[Event, tuple[Event, ...]]
"""A ``created`` (game) or ``match_created`` event and the events that follow it."""


# --- export ---------------------------------------------------------------------------


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

    >>> game, created = RaceGame.create("backgammon")
    >>> opening = game.apply(act.Start(), _Dice([(3, 1)]))
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
    if variant not in MAT_VARIANTS:
        raise MatError(f"gnubg's .mat format has no {variant}; it holds {', '.join(MAT_VARIANTS)}")
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


# --- import ---------------------------------------------------------------------------

_TAG = re.compile(r'^\s*[;#]\s*\[(?P<key>[A-Za-z]+)\s+"(?P<value>[^"]*)"\]')
_LENGTH = re.compile(r"^\s*(?P<length>\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(?P<number>\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(?P<a>[^:]*?)\s*:\s*(?P<sa>\d+)\s+(?P<b>[^:]*?)\s*:\s*(?P<sb>\d+)\s*$")
_ROLL = re.compile(r"^(?P<d1>[1-6])(?P<d2>[1-6]):\s*(?P<moves>.*)$")
_DICE_MARK = re.compile(r"[1-6][1-6]:")
_CUBE = re.compile(r"^(?P<what>doubles|beavers|raccoons)\s*=>\s*(?P<value>\d+)$", re.IGNORECASE)
_WINS = re.compile(r"^wins\s+(?P<points>\d+)\s+points?\b", re.IGNORECASE)
_POINT = re.compile(r"^(?P<point>\d+)(?P<rest>\D*)$")


@dataclass(frozen=True, slots=True)
class _Record:
    line: int
    side: Side
    kind: str
    dice: tuple[int, int] = (0, 0)
    moves: str = ""
    points: int = 0


@dataclass(slots=True)
class _MatGame:
    line: int
    score: tuple[int, int]
    records: list[_Record] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ImportedMat:
    """What a ``.mat`` text replays to.

    A match (``length`` ≥ 1) gives one match log; a money file (``0 point match``)
    one game log per game (money sessions are single games). ``final`` holds the
    state each log replays to.
    """

    names: tuple[str, str]
    length: int
    logs: tuple[Log, ...]
    final: tuple[Match | RaceGame, ...]


def import_mat(text: str, *, variant: str | None = None) -> ImportedMat:
    """Replay a ``.mat`` text through our state machine; :class:`MatError` names the line.

    ``variant`` defaults to the file's ``Variant`` tag, else backgammon.

    >>> text = " 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5\\n"
    >>> imported = import_mat(text)
    >>> imported.names, imported.final[0].game.position.id()
    (('A', 'B'), 'sGfwATDgc/ABMA')
    """
    tags, length, games, names = _parse(text)
    variant = variant or tags.get("variant", "backgammon")
    if variant not in MAT_VARIANTS:
        raise MatError(f"gnubg's .mat format has no {variant}; it holds {', '.join(MAT_VARIANTS)}")
    forfeit = _side_named(tags.get("forfeit"))
    if length:
        match, created = Match.create(variant, length)
        table = _Table(match)
        for index, mat_game in enumerate(games):
            if table.match_over:
                break
            if index:
                table.check_score(mat_game, index + 1)
            last = index == len(games) - 1
            table.play(mat_game, 0, forfeit if last else None)
        if forfeit is not None and not table.over:
            table.act(act.Timeout(forfeit))
        final = replay_match(created, table.events)
        return ImportedMat(names, length, ((created, tuple(table.events)),), (final,))
    logs: list[Log] = []
    states: list[Match | RaceGame] = []
    for index, mat_game in enumerate(games):
        options = _money_options(variant, tags)
        game, created = RaceGame.create(variant, options)
        table = _Table(game)
        last = index == len(games) - 1
        table.play(mat_game, int(tags.get("autodoubles", "0") or 0), forfeit if last else None)
        if last and forfeit and not table.over and table.game.phase is not Phase.OPENING:
            table.act(act.Timeout(forfeit))
        logs.append((created, tuple(table.events)))
        states.append(replay(created, table.events))
    return ImportedMat(names, 0, tuple(logs), tuple(states))


def import_records(text: str, *, variant: str | None = None) -> list[dict[str, Any]]:
    """``sheshbesh import``: one record per match, or per money game, with the players' names.

    A match record has ``"game": "match"`` (its log folds with
    :func:`~sheshbesh.play.match.replay_match`); a money game's is a race record.
    """
    imported = import_mat(text, variant=variant)
    players = {"W": imported.names[0], "B": imported.names[1]}
    records = []
    for created, events in imported.logs:
        record = make_record(created, events)
        if imported.length:
            record["game"] = "match"
        records.append({**record, "players": players})
    return records


def _side_named(colour: str | None) -> Side | None:
    if colour is None:
        return None
    sides = {"white": Side.WHITE, "black": Side.BLACK}
    if colour.strip().lower() not in sides:
        raise MatError(f"[Forfeit {colour!r}] should name White or Black")
    return sides[colour.strip().lower()]


def _money_options(variant: str, tags: dict[str, str]) -> RaceOptions:
    chosen: dict[str, Any] = {}
    for tag, option in (("jacoby", "jacoby"), ("beaver", "beavers")):
        if tag in tags:
            chosen[option] = tags[tag].strip().lower() in ("on", "yes", "true", "1")
    autos = int(tags.get("autodoubles", "0") or 0)
    if autos:
        chosen["auto_doubles"] = max(autos, RaceOptions.defaults(variant).auto_doubles)
    return RaceOptions.defaults(variant, **chosen)


def _parse(text: str) -> tuple[dict[str, str], int, list[_MatGame], tuple[str, str]]:
    tags: dict[str, str] = {}
    length: int | None = None
    games: list[_MatGame] = []
    names = ("White", "Black")
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index].lstrip("\ufeff")
        number = index + 1
        index += 1
        if not line.strip():
            continue
        tag = _TAG.match(line)
        if tag and not games:
            tags[tag["key"].lower()] = tag["value"]
            continue
        if line.lstrip().startswith((";", "#")):
            continue
        if length is None:
            found = _LENGTH.match(line)
            if not found:
                raise MatError(f"line {number}: expected 'N point match', found {line.strip()!r}")
            length = int(found["length"])
            continue
        game = _GAME.match(line)
        if game:
            while index < len(lines) and not lines[index].strip():
                index += 1
            score = _SCORE.match(lines[index]) if index < len(lines) else None
            if score is None:
                raise MatError(f"line {index + 1}: expected the players and score, 'A : 0  B : 0'")
            names = (score["a"], score["b"])
            games.append(_MatGame(index + 1, (int(score["sa"]), int(score["sb"]))))
            index += 1
            continue
        if not games:
            raise MatError(f"line {number}: expected ' Game 1', found {line.strip()!r}")
        left, right = _columns(line)
        for side, cell in ((Side.WHITE, left), (Side.BLACK, right)):
            if cell:
                games[-1].records.append(_record(number, side, cell))
    if length is None:
        raise MatError("not a .mat file: no 'N point match' line")
    if length > 25:
        raise MatError(f"match length {length}: matches are 1-25 points (BG-18)")
    return tags, length, games, names


def _columns(line: str) -> tuple[str, str]:
    """Split a move line as gnubg does: at the second roll, else at a gap after column 15."""
    marks = [found.start() for found in _DICE_MARK.finditer(line)]
    if len(marks) >= 2:
        cut = marks[1]
    else:
        gap = line.find("  ", 15) if len(line) > 15 else -1
        cut = gap if gap >= 0 else len(line)
    left, right = line[:cut], line[cut:]
    if ")" in left:
        left = left[left.index(")") + 1 :]
    return left.strip(), right.strip()


def _record(line: int, side: Side, cell: str) -> _Record:
    roll = _ROLL.match(cell)
    if roll:
        moves = roll["moves"].strip()
        if moves.lower().startswith(("???", "cannot move")):
            moves = ""
        return _Record(line, side, "roll", (int(roll["d1"]), int(roll["d2"])), moves)
    cube = _CUBE.match(cell)
    if cube:
        kind = "double" if cube["what"].lower() == "doubles" else "beaver"
        if cube["what"].lower() == "raccoons":
            raise MatError(f"line {line}: raccoons are not played (BG-16)")
        return _Record(line, side, kind, points=int(cube["value"]))
    lowered = cell.lower()
    if lowered.startswith("take"):
        return _Record(line, side, "take")
    if lowered.startswith("drop"):
        return _Record(line, side, "drop")
    wins = _WINS.match(cell)
    if wins:
        return _Record(line, side, "wins", points=int(wins["points"]))
    if lowered.startswith("resign"):
        return _Record(line, side, "note")
    raise MatError(f"line {line}: cannot read {cell!r}")


def _our_notation(moves: str) -> str:
    """gnubg's ``25/22 6/0`` as our ``bar/22 6/off``."""
    tokens = []
    for token in moves.replace(",", " ").split():
        parts = token.split("/")
        for at, part in enumerate(parts):
            point = _POINT.match(part)
            if point and point["point"] == "25" and at == 0:
                parts[at] = "bar" + point["rest"]
            elif point and point["point"] == "0" and at == len(parts) - 1:
                parts[at] = "off" + point["rest"]
        tokens.append("/".join(parts))
    return " ".join(tokens)


class _Dice:
    """Dice read from the file, handed to the game in order."""

    def __init__(self, rolls: Iterable[tuple[int, int]] = ()) -> None:
        self.rolls = list(rolls)

    def roll(self, nonce: str | None, count: int) -> act.Rolled:
        if not self.rolls:
            raise MatError("the game asked for dice the file does not have")
        return act.Rolled(self.rolls.pop(0))


class _Table:
    """Drives a match or a money game with the file's records, collecting the events."""

    def __init__(self, state: Match | RaceGame) -> None:
        self.state = state
        self.events: list[Event] = []
        self.dice = _Dice()

    @property
    def game(self) -> RaceGame:
        return self.state.game if isinstance(self.state, Match) else self.state

    @property
    def match_over(self) -> bool:
        return isinstance(self.state, Match) and self.state.finished

    def act(self, action: act.Action) -> None:
        step = self.state.apply(action, self.dice)
        self.state = step.match if isinstance(step, MatchStep) else step.game
        self.events += step.events

    def check_score(self, mat_game: _MatGame, number: int) -> None:
        """A new game of the file: the match's last game must be over, the score the same."""
        assert isinstance(self.state, Match)
        if self.state.number != number:
            raise MatError(f"line {mat_game.line}: game {number} starts before the last one ended")
        if self.state.score != mat_game.score:
            ours = "-".join(map(str, self.state.score))
            theirs = "-".join(map(str, mat_game.score))
            raise MatError(
                f"line {mat_game.line}: the file's score {theirs} is not the replayed {ours}"
            )

    @property
    def number(self) -> int:
        return self.state.number if isinstance(self.state, Match) else 1

    @property
    def over(self) -> bool:
        return self.state.finished

    def play(self, mat_game: _MatGame, autos: int, forfeit: Side | None) -> None:
        number = self.number
        for record in mat_game.records:
            try:
                if self.over or self.number != number:
                    self.after_end(record)
                else:
                    self.record(record, autos, forfeit)
            except MatError as error:
                if str(error).startswith("line "):
                    raise
                raise MatError(f"line {record.line}: {error}") from None
            except ValueError as error:
                raise MatError(f"line {record.line}: {error}") from error

    def after_end(self, record: _Record) -> None:
        if record.kind == "wins":
            self.check_points(record)
        elif record.kind != "note":
            raise MatError(f"{record.kind} after the game is over")

    def record(self, record: _Record, autos: int, forfeit: Side | None) -> None:
        side = record.side
        if record.kind == "roll":
            self.roll(record, autos)
        elif self.game.phase is Phase.OPENING:
            raise MatError(f"a game opens with a roll, not {record.kind} (BF-14)")
        elif record.kind == "double":
            self.act(act.Double(side))
        elif record.kind == "beaver":
            self.act(act.Beaver(side))
        elif record.kind == "take":
            self.act(act.Take(side))
        elif record.kind == "drop":
            self.act(act.Drop(side))
        elif record.kind == "wins":
            self.wins(record, forfeit)

    def roll(self, record: _Record, autos: int) -> None:
        side, (d1, d2) = record.side, record.dice
        high, low = max(d1, d2), min(d1, d2)
        before = self.game
        if before.phase is Phase.OPENING:
            if high == low:
                raise MatError(f"the opening roll {high}{low} is a doublet (BF-14)")
            self.dice.rolls += [(1, 1)] * autos
            self.dice.rolls.append((high, low) if side is Side.WHITE else (low, high))
            self.act(act.Start())
        else:
            if before.phase is Phase.BEAVERED and before.to_act is side:
                self.act(act.Take(side))
                before = self.game
            self.dice.rolls.append((high, low))
            self.act(act.Roll(side))
        if self.game.phase is Phase.MOVE:
            if record.moves:
                self.act(act.PlayText(side, _our_notation(record.moves)))
        elif record.moves:
            self.check_auto(before.position, (high, low), record.moves)

    def check_auto(self, position: Position, dice: tuple[int, int], moves: str) -> None:
        """The engine played a forced play by itself: the file must name that play."""
        named = position.play(dice, _our_notation(moves)).after
        played = [e for e in self.events if e["type"] == "played"]
        if not played or Position.from_text(position.rules, played[-1]["position"]) != named:
            raise MatError(f"{moves!r} is not the only legal play")

    def wins(self, record: _Record, forfeit: Side | None) -> None:
        """A ``Wins`` line in a game that is not over: a resignation, or a forfeit (PL-7)."""
        game = self.game
        winner, loser = record.side, record.side.other
        if forfeit is loser:
            self.act(act.Timeout(loser))
        elif game.can_resign(loser):
            cube = game.cube.value
            level = 1 if record.points <= cube else 2 if record.points <= 2 * cube else 3
            self.act(act.Resign(loser, level))
            self.act(act.AcceptResign(winner))
        else:
            raise MatError(
                f"{loser.name.lower()} resigns while {winner.name.lower()} is to act; "
                "a player resigns on his own turn (BF-15)"
            )
        self.check_points(record)

    def check_points(self, record: _Record) -> None:
        results = [e for e in self.events if e["type"] == "finished"]
        if not results:
            raise MatError("a 'Wins' line, but the game is not over")
        points = results[-1]["result"]["points"]
        winner = results[-1]["result"]["winner"]
        if points != record.points or winner != record.side.letter:
            raise MatError(
                f"the file says {record.side.name.lower()} wins {record.points}, "
                f"the replay gives {winner} {points}"
            )
