"""PDN: whole games as text, for export, import and analysis.

A game is a tag section (``[Event "Club night"]``, ``[Result "2-0"]``, a
``[FEN "..."]`` tag for a set-up position) followed by numbered moves in DR-4
notation and the result. Results are written the International way: ``2-0``
White wins, ``0-2`` Black wins, ``1-1`` draw, ``*`` unfinished; ``1-0``,
``0-1`` and ``1/2-1/2`` are read too. Comments ``{…}``, variations ``(…)``,
NAGs ``$1`` and ``!``/``?`` marks are skipped on input.

>>> text = write_pdn(PdnGame(Game.begin().play("32-28").play("18-23"), (("Event", "Demo"),)))
>>> print(text)
[Event "Demo"]
[Result "*"]
[GameType "20"]
<BLANKLINE>
1. 32-28 18-23 *
<BLANKLINE>
>>> read_pdn(text)[0].game.moves[-1]
Move(path=(18, 23), captured=())
"""

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import DraughtsError, InvalidPdn
from .game import Game
from .position import Position

GAME_TYPE = "20"
"""PDN GameType of International draughts on 10×10."""

_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_RESULTS = {"2-0": "2-0", "0-2": "0-2", "1-1": "1-1", "0-0": "0-0", "*": "*"}
_RESULTS |= {"1-0": "2-0", "0-1": "0-2", "1/2-1/2": "1-1"}
_TOKENS = re.compile(
    r"""
    \[\s*(?P<tag>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]
    | \{[^}]*\}
    | ;[^\n]*
    | (?P<open>\() | (?P<close>\))
    | \$\d+
    | (?P<result>1/2-1/2|[0-2]-[0-2](?![0-9x-])|\*)
    | \d+\s*\.(?:\s*\.\.)?
    | (?P<move>\d+(?:[-x]\d+)+)[!?]*
    | (?P<bad>\S+)
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class PdnGame:
    """A game with its PDN tags; ``result`` ``None`` means "as the rules say"."""

    game: Game
    tags: tuple[tuple[str, str], ...] = ()
    result: str | None = None

    @property
    def final_result(self) -> str:
        """The result written out: the given one, else the game's outcome, else ``*``."""
        if self.result is not None:
            return self.result
        outcome = self.game.outcome()
        return "*" if outcome is None else outcome.result


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_pdn(record: PdnGame) -> str:
    """Write one game as PDN: tags (the seven-tag roster first), moves, result."""
    tags = dict(record.tags)
    tags["Result"] = record.final_result
    tags.setdefault("GameType", GAME_TYPE)
    if record.game.start != Position.start():
        tags["FEN"] = record.game.start.fen()
    else:
        tags.pop("FEN", None)
    order = [k for k in _ROSTER if k in tags] + [k for k in tags if k not in _ROSTER]
    head = "".join(f'[{k} "{_quote(tags[k])}"]\n' for k in order)
    words: list[str] = []
    white_first = record.game.start.turn.value == "W"
    for ply, move in enumerate(record.game.moves):
        number, black = divmod(ply + (0 if white_first else 1), 2)
        if not black:
            words.append(f"{number + 1}.")
        elif ply == 0:
            words.append(f"{number + 1}...")
        words.append(str(move))
    words.append(record.final_result)
    return (
        head
        + "\n"
        + textwrap.fill(" ".join(words), 79, break_on_hyphens=False, break_long_words=False)
        + "\n"
    )


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _games(text: str) -> Iterator[tuple[list[tuple[str, str]], list[str], str | None]]:
    """Split PDN text into (tags, move texts, result token) per game."""
    tags: list[tuple[str, str]] = []
    moves: list[str] = []
    depth = 0
    for match in _TOKENS.finditer(text):
        if match["open"]:
            depth += 1
        elif match["close"]:
            if depth == 0:
                raise InvalidPdn(f"unbalanced ')' at offset {match.start()}")
            depth -= 1
        elif depth:
            continue
        elif match["tag"]:
            if moves:
                yield tags, moves, None
                tags, moves = [], []
            tags.append((match["tag"], _unquote(match["value"])))
        elif match["result"]:
            yield tags, moves, match["result"]
            tags, moves = [], []
        elif match["move"]:
            moves.append(match["move"])
        elif match["bad"]:
            raise InvalidPdn(f"unreadable PDN token {match['bad']!r}")
    if depth:
        raise InvalidPdn("unbalanced '(' at the end of the PDN text")
    if tags or moves:
        yield tags, moves, None


def _build(tags: list[tuple[str, str]], moves: list[str], ending: str | None) -> PdnGame:
    found = dict(tags)
    game_type = found.get("GameType", GAME_TYPE)
    if game_type.split(",")[0].strip() != GAME_TYPE:
        raise InvalidPdn(f"GameType {game_type!r} is not International draughts ({GAME_TYPE})")
    try:
        game = Game.begin(Position.from_fen(found["FEN"]) if "FEN" in found else None)
    except DraughtsError as error:
        raise InvalidPdn(f"FEN tag {found['FEN']!r}: {error}") from error
    for number, move in enumerate(moves, 1):
        try:
            game = game.play(move)
        except DraughtsError as error:
            raise InvalidPdn(f"move {number} {move!r}: {error}") from error
    tagged = found.get("Result")
    results = {_RESULTS.get(r, r) for r in (tagged, ending) if r is not None}
    for result in results:
        if result not in _RESULTS.values():
            raise InvalidPdn(f"unknown result {result!r}")
    if len(results) > 1:
        raise InvalidPdn(f"Result tag {tagged!r} disagrees with the move text's {ending!r}")
    return PdnGame(game, tuple(tags), results.pop() if results else None)


def read_pdn(text: str) -> list[PdnGame]:
    """Read every game in PDN text; ``InvalidPdn`` names the token it could not use.

    Moves are checked against the rules as they are read.
    """
    return [_build(*parts) for parts in _games(text)]
