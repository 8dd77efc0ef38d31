"""Reading ``.mat`` text into per-game records, before anything is replayed.

This is the lexical half of the import: header tags, the match length, each
game's score line, and the two columns of every move line, split as gnubg
splits them (:func:`parse_mat`). It knows the format's words, not the rules;
:mod:`.import_` replays the records through the game and checks them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sheshbesh.games.race import Side

from .common import MatError

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
class MatRecord:
    """One column entry of a move line: a roll and its moves, a cube action, or ``Wins``."""

    line: int
    side: Side
    kind: str
    dice: tuple[int, int] = (0, 0)
    moves: str = ""
    points: int = 0


@dataclass(slots=True)
class MatGame:
    """One ``Game N`` of the file: the line of its score, the score, and its records in order."""

    line: int
    score: tuple[int, int]
    records: list[MatRecord] = field(default_factory=list)


def parse_mat(text: str) -> tuple[dict[str, str], int, list[MatGame], tuple[str, str]]:
    """The header tags (keys lower-cased), the match length, the games, and the players' names."""
    tags: dict[str, str] = {}
    length: int | None = None
    games: list[MatGame] = []
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
            games.append(MatGame(index + 1, (int(score["sa"]), int(score["sb"]))))
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


def _record(line: int, side: Side, cell: str) -> MatRecord:
    roll = _ROLL.match(cell)
    if roll:
        moves = roll["moves"].strip()
        if moves.lower().startswith(("???", "cannot move")):
            moves = ""
        return MatRecord(line, side, "roll", (int(roll["d1"]), int(roll["d2"])), moves)
    cube = _CUBE.match(cell)
    if cube:
        kind = "double" if cube["what"].lower() == "doubles" else "beaver"
        if cube["what"].lower() == "raccoons":
            raise MatError(f"line {line}: raccoons are not played (BG-16)")
        return MatRecord(line, side, kind, points=int(cube["value"]))
    lowered = cell.lower()
    if lowered.startswith("take"):
        return MatRecord(line, side, "take")
    if lowered.startswith("drop"):
        return MatRecord(line, side, "drop")
    wins = _WINS.match(cell)
    if wins:
        return MatRecord(line, side, "wins", points=int(wins["points"]))
    if lowered.startswith("resign"):
        return MatRecord(line, side, "note")
    raise MatError(f"line {line}: cannot read {cell!r}")


def our_notation(moves: str) -> str:
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
