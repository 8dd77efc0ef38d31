"""Play notation in the mover's own numbers, as gnubg writes it (BF-16).

``8/5 6/5`` two checkers, ``13/7(2)`` two checkers the same way, ``24/13`` one
checker using both dice, ``24/18*/13`` with a hit on the way, ``bar/22*`` entering
with a hit, ``6/off`` bearing off; Plakoto marks a pin with ``^``.

:func:`format_play` writes the shortest such text for a route of steps;
:func:`parse_play` reads any of these forms (also ``13/8/5`` with a plain
intermediate point) into checker paths; :func:`resolve` finds the legal play a
text names.

>>> parse_play("bar/22* 13/7(2)")
(Path(points=(25, 22), hits=(False, True), count=1), Path(points=(13, 7), hits=(False, False), count=2))
>>> format_play(parse_steps("24/18 18/13"))
'24/13'
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import AmbiguousPlay, IllegalPlay, InvalidPlay
from .moves import Play, Step

if TYPE_CHECKING:
    from .position import Position

_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d+)\))?$")
_POINT = re.compile(r"^(?P<point>bar|off|\d{1,2})(?P<mark>[*^]?)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Path:
    """One checker's way in a play (repeated ``count`` times): points and hit marks."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]
    count: int = 1


def format_play(steps: tuple[Step, ...], *, pin: bool = False) -> str:
    """gnubg-style text for a route: chains merged, plain intermediates dropped.

    >>> format_play((Step(13, 8, 5), Step(8, 5, 3)))
    '13/5'
    >>> format_play((Step(25, 22, 3, True), Step(6, 0, 6)))
    'bar/22* 6/off'
    """
    mark = "^" if pin else "*"
    chains: list[list[tuple[int, bool]]] = []
    for step in steps:
        for chain in reversed(chains):
            if chain[-1][0] == step.src and step.src != 0:
                chain.append((step.dst, step.hit))
                break
        else:
            chains.append([(step.src, False), (step.dst, step.hit)])
    texts = []
    for chain in chains:
        shown = [chain[0]] + [point for point in chain[1:-1] if point[1]] + [chain[-1]]
        texts.append(
            (
                chain[0][0],
                chain[-1][0],
                "/".join(_label(point) + (mark if hit else "") for point, hit in shown),
            )
        )
    counts = Counter(texts)
    parts = []
    for src, dst, text in sorted(counts, key=lambda t: (-t[0], -t[1], t[2])):
        n = counts[src, dst, text]
        parts.append(text if n == 1 else f"{text}({n})")
    return " ".join(parts)


def parse_play(text: str) -> tuple[Path, ...]:
    """Read play text into checker paths; raise :class:`InvalidPlay` naming the bad token."""
    paths = []
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InvalidPlay("empty play text")
    for token in tokens:
        match = _TOKEN.match(token)
        if not match:
            raise InvalidPlay(f"cannot read {token!r}")
        count = int(match["count"] or 1)
        if not 1 <= count <= 4:
            raise InvalidPlay(f"{token!r}: a play moves at most four checkers one way")
        points, hits = [], []
        for part in match["path"].split("/"):
            point = _POINT.match(part)
            if not point:
                raise InvalidPlay(f"{token!r}: {part!r} is not a point (1-24, bar, off)")
            label = point["point"].lower()
            number = 25 if label == "bar" else 0 if label == "off" else int(label)
            if not 0 <= number <= 25 or (label.isdigit() and not 1 <= number <= 24):
                raise InvalidPlay(f"{token!r}: no point {part!r}")
            points.append(number)
            hits.append(bool(point["mark"]))
        if len(points) < 2:
            raise InvalidPlay(f"{token!r} needs a start and an end: 'from/to'")
        if any(a <= b for a, b in zip(points, points[1:], strict=False)):
            raise InvalidPlay(f"{token!r}: checkers only move to lower numbers")
        if 25 in points[1:] or 0 in points[:-1]:
            raise InvalidPlay(f"{token!r}: 'bar' can only start and 'off' only end a path")
        paths.append(Path(tuple(points), tuple(hits), count))
    return tuple(paths)


def parse_steps(text: str) -> tuple[Step, ...]:
    """Read text as a list of single steps (dice read off the distances)."""
    steps = []
    for path in parse_play(text):
        for _ in range(path.count):
            for src, dst, hit in zip(path.points, path.points[1:], path.hits[1:], strict=False):
                steps.append(Step(src, dst, src - dst, hit))
    return tuple(steps)


def resolve(position: Position, dice: tuple[int, int], text: str) -> Play:
    """The legal play that ``text`` names.

    A text gives where checkers go and (with ``*``/``^``) which blots are hit; the
    legal plays are compared on exactly that. A text without marks may leave the
    hits out when only one legal play fits.
    """
    paths = parse_play(text)
    plays = position.legal_plays(dice)
    if not plays:
        raise IllegalPlay(f"{text!r}: no play is possible with {dice[0]}-{dice[1]}; the turn passes")
    moved = _movement(paths)
    marked = frozenset(p for path in paths for p, hit in zip(path.points, path.hits, strict=True)
                       if hit)  # fmt: skip
    exact = [play for play in plays if _movement_of(play) == moved and _hits_of(play) == marked]
    if len(exact) == 1:
        return exact[0]
    loose = [play for play in plays if _movement_of(play) == moved]
    if not exact and not marked and len(loose) == 1:
        return loose[0]
    if len(exact) > 1 or (not marked and len(loose) > 1):
        options = ", ".join(play.notation() for play in (exact or loose))
        raise AmbiguousPlay(f"{text!r} could mean {options}")
    legal = ", ".join(play.notation() for play in plays[:12])
    more = " …" if len(plays) > 12 else ""
    raise IllegalPlay(
        f"{text!r} is not legal with {dice[0]}-{dice[1]}; legal plays: {legal}{more}"
    )


def _movement(paths: tuple[Path, ...]) -> Counter[tuple[str, int]]:
    moved: Counter[tuple[str, int]] = Counter()
    for path in paths:
        moved["from", path.points[0]] += path.count
        moved["to", path.points[-1]] += path.count
    return _net(moved)


def _movement_of(play: Play) -> Counter[tuple[str, int]]:
    moved: Counter[tuple[str, int]] = Counter()
    for step in play.steps:
        moved["from", step.src] += 1
        moved["to", step.dst] += 1
    return _net(moved)


def _net(moved: Counter[tuple[str, int]]) -> Counter[tuple[str, int]]:
    """Cancel pass-through points: a checker arriving and leaving again nets out."""
    for point in range(26):
        through = min(moved["from", point], moved["to", point])
        moved["from", point] -= through
        moved["to", point] -= through
    return +moved


def _hits_of(play: Play) -> frozenset[int]:
    return frozenset(step.dst for step in play.steps if step.hit)


def _label(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)
