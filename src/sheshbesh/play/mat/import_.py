"""Replaying ``.mat`` text through our state machine: a match log, or one log per money game.

:mod:`.parse` gives the file's records; here each record becomes the action our
game would take (``Start``, ``Roll``, ``PlayText``, ``Double``...), with the
file's dice handed in, so an imported log is a checked one. Anything the game
refuses, or a score or ``Wins`` line the replay contradicts, is a
:class:`~.common.MatError` naming the file's line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sheshbesh.games.race import Position, Side

from .. import actions as act
from ..match import Match, MatchStep, replay_match
from ..options import RaceOptions
from ..race import Event, Phase, RaceGame, replay
from ..record import make_record
from .common import MatError, check_variant
from .parse import MatGame, MatRecord, our_notation, parse_mat

Log = tuple[Event, tuple[Event, ...]]
"""A ``created`` (game) or ``match_created`` event and the events that follow it."""


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
    tags, length, games, names = parse_mat(text)
    variant = variant or tags.get("variant", "backgammon")
    check_variant(variant)
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

    def check_score(self, mat_game: MatGame, number: int) -> None:
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

    def play(self, mat_game: MatGame, autos: int, forfeit: Side | None) -> None:
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

    def after_end(self, record: MatRecord) -> None:
        if record.kind == "wins":
            self.check_points(record)
        elif record.kind != "note":
            raise MatError(f"{record.kind} after the game is over")

    def record(self, record: MatRecord, autos: int, forfeit: Side | None) -> None:
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

    def roll(self, record: MatRecord, autos: int) -> None:
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
                self.act(act.PlayText(side, our_notation(record.moves)))
        elif record.moves:
            self.check_auto(before.position, (high, low), record.moves)

    def check_auto(self, position: Position, dice: tuple[int, int], moves: str) -> None:
        """The engine played a forced play by itself: the file must name that play."""
        named = position.play(dice, our_notation(moves)).after
        played = [e for e in self.events if e["type"] == "played"]
        if not played or Position.from_text(position.rules, played[-1]["position"]) != named:
            raise MatError(f"{moves!r} is not the only legal play")

    def wins(self, record: MatRecord, forfeit: Side | None) -> None:
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

    def check_points(self, record: MatRecord) -> None:
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
