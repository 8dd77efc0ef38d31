"""Play notation in the mover's own numbers, as gnubg writes it (BF-16).

``8/5 6/5`` two checkers, ``13/7(2)`` two checkers the same way, ``24/13`` one
checker using both dice, ``24/18*/13`` with a hit on the way, ``bar/22*`` entering
with a hit, ``6/off`` bearing off; Plakoto marks a pin with ``^``.

:func:`format_play` writes the shortest such text for a route of steps;
:func:`parse_play` reads any of these forms (also ``13/8/5`` with a plain
intermediate point) into checker paths; :func:`resolve` finds the legal play a
text names.

>>> parse_play("bar/22* 13/7(2)")[0]
Path(points=(25, 22), hits=(False, True), count=1)
>>> format_play(parse_steps("24/18 18/13"))
'24/13'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from ..errors import AmbiguousPlay, IllegalPlay, InvalidPlay
from .movegen import PINS, State, to_search
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
    _join(chains)
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[list[bool], list[int]]] = {}
    for chain in chains:
        points = tuple(point for point, _ in chain)
        # gnubg's order: by start, then by the first landing, longer chains first.
        key = (-chain[0][0], -chain[1][0], chain[-1][0])
        marks, count = groups.setdefault((key, points), ([False] * len(points), [0]))
        # Checkers going the same way are written once with a count; a hit by any
        # of them marks the point, as gnubg writes ``24/22*(2)``.
        marks[:] = [old or hit for old, (_, hit) in zip(marks, chain, strict=True)]
        count[0] += 1
    parts = []
    for (_, points), (marks, count) in sorted(groups.items()):
        # Plain points on the way are left out; so is a Plakoto pin on the way,
        # which is undone when the pinner moves on.
        shown = [
            _label(point) + (mark if hit else "")
            for i, (point, hit) in enumerate(zip(points, marks, strict=True))
            if i in (0, len(points) - 1) or (hit and not pin)
        ]
        text = "/".join(shown)
        parts.append(text if count[0] == 1 else f"{text}({count[0]})")
    return " ".join(parts)


def _join(chains: list[list[tuple[int, bool]]]) -> None:
    """Join a chain ending on a point to one leaving it: ``8/2 13/8`` is ``13/2``.

    The position after is the same either way, and a checker arriving where
    another leaves reads as one checker travelling on, as gnubg writes it.
    """
    joined = True
    while joined:
        joined = False
        for first in chains:
            end = first[-1][0]
            follow = next((c for c in chains if c is not first and c[0][0] == end), None)
            if end and follow is not None:
                first.extend(follow[1:])
                chains.remove(follow)
                joined = True
                break


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
        if 25 in points[1:] or 0 in points[:-1]:
            raise InvalidPlay(f"{token!r}: 'bar' can only start and 'off' only end a path")
        if any(a <= b for a, b in pairwise(points)):
            raise InvalidPlay(f"{token!r}: checkers only move to lower numbers")
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


def resolve(
    position: Position,
    dice: tuple[int, int],
    text: str,
    plays: tuple[Play, ...] | None = None,
) -> Play:
    """The legal play that ``text`` names.

    A text gives where checkers go and (with ``*``/``^``) which blots are hit; the
    legal plays are compared on exactly that. A text without marks may leave the
    hits out when only one legal play fits. Points named on the way must be
    reachable with the dice and open to the mover (BF-8).
    """
    paths = parse_play(text)
    if plays is None:
        plays = position.legal_plays(dice)
    if not plays:
        raise IllegalPlay(f"{text!r}: nothing can move with {dice[0]}-{dice[1]}; the turn passes")
    _check_route(position, dice, text, paths)
    before = to_search(position)
    target = _profile_after(before, paths, text)
    marked = frozenset(p for path in paths for p, hit in zip(path.points, path.hits, strict=True)
                       if hit)  # fmt: skip
    fitting = [play for play in plays if _profile(play.key) == target]
    exact = [play for play in fitting if _hits_of(before, play.key) == marked]
    if len(exact) == 1:
        return exact[0]
    if not exact and not marked and len(fitting) == 1:
        return fitting[0]
    if len(exact) > 1 or (not marked and len(fitting) > 1):
        options = ", ".join(play.notation() for play in (exact or fitting))
        raise AmbiguousPlay(f"{text!r} could mean {options}")
    legal = ", ".join(play.notation() for play in plays[:12])
    more = " …" if len(plays) > 12 else ""
    raise IllegalPlay(f"{text!r} is not legal with {dice[0]}-{dice[1]}; legal plays: {legal}{more}")


def _check_route(
    position: Position, dice: tuple[int, int], text: str, paths: tuple[Path, ...]
) -> None:
    """Reject a named route through a closed point or with distances no die gives."""
    d1, d2 = dice
    singles = {d1, d2}
    reach = {d1 * k for k in range(1, 5)} if d1 == d2 else {d1, d2, d1 + d2}
    start = to_search(position)
    lone = position.rules.lone_checker
    for path in paths:
        for a, b in pairwise(path.points):
            distance = a - b
            if b == 0:
                if distance > max(reach):
                    raise IllegalPlay(f"{text!r}: {_label(a)} is {distance} pips from off")
            elif distance not in reach:
                raise IllegalPlay(f"{text!r}: no die or dice take {_label(a)} to {_label(b)}")
        if len(path.points) > 2 and not (d1 == d2 or all(
            a - b in singles or (b == 0 and a - b <= max(singles))
            for a, b in pairwise(path.points)
        )):  # fmt: skip
            raise IllegalPlay(f"{text!r}: each part of {path.points} must use one die")
        for point in path.points[1:-1]:
            value = start[point]
            closed = value < -1 or (value == -1 and lone == "block")
            if lone == "pin" and value == -1:
                closed = start[PINS + point] == 1
            if closed:
                raise IllegalPlay(f"{text!r}: point {point} is closed on the way")


def _profile(state: State) -> tuple[int, ...]:
    """Where the mover's checkers stand: own points 1–24, then off, then bar or unentered."""
    return (*(max(0, state[p]) for p in range(1, 25)), state[0], state[25] + state[27])


def _profile_after(before: State, paths: tuple[Path, ...], text: str) -> tuple[int, ...]:
    """The mover's checkers after the movement ``paths`` describe (hits aside)."""
    profile = list(_profile(before))
    slot = {0: 24, 25: 25}
    for path in paths:
        profile[slot.get(path.points[0], path.points[0] - 1)] -= path.count
        profile[slot.get(path.points[-1], path.points[-1] - 1)] += path.count
    for path in paths:
        if profile[slot.get(path.points[0], path.points[0] - 1)] < 0:
            raise IllegalPlay(f"{text!r}: not enough checkers on {_label(path.points[0])}")
    return tuple(profile)


def _hits_of(before: State, after: State) -> frozenset[int]:
    """Own points where a blot was hit or stays pinned, read off the two boards."""
    return frozenset(p for p in range(1, 25) if before[p] == -1 and after[p] >= 0)


def _label(point: int) -> str:
    return "bar" if point == 25 else "off" if point == 0 else str(point)
