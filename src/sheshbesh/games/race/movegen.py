"""One move generator for every race variant (BF-7 … BF-12, BF-9 obligations).

The search runs on a flat tuple *from the mover's side*, so that "forward",
"home" and "open" read the same in every game:

====== ==========================================================
index  meaning
====== ==========================================================
0      mover's checkers borne off
1–24   own points: > 0 mover's checkers, < 0 opponent's
25     mover's checkers on the bar
26     opponent checkers hit this turn (they go to his bar)
27     mover's checkers not yet entered (Russian backgammon)
28     bit mask of own home points hit this turn (CN-2)
29–52  Plakoto pins per own point: +1 mover's checker pinned, -1 opponent's
====== ==========================================================

Each level of the search applies one die to every state of the previous level,
keeping one route per distinct state, so transpositions are searched once. The
deepest level reached is the number of dice that must be used (BF-9.2); with a
single die usable the larger one wins (BF-9.3). Variant rules are checked inside
each step, so the obligations see them (BF-9, last paragraph).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import GameOver, InvalidDice
from .moves import Play, RawStep
from .position import Position
from .rules import RaceRules, to_absolute
from .side import Side

State = tuple[int, ...]
Successors = Callable[[State, int], list[tuple[State, RawStep]]]

OFF, BAR, HITS, WAITING, MASK, PINS = 0, 25, 26, 27, 28, 28
"""Slots of the search tuple; ``PINS + p`` is the pin cell of own point p."""

_OWN_TO_ABS = {
    (mapping, side): tuple(
        [0] + [to_absolute(mapping, side is Side.BLACK, own) for own in range(1, 25)]
    )
    for mapping in ("opposite", "diagonal", "shared")
    for side in Side
}
_OPPONENT_NUMBER = tuple([0] + [own + 12 if own <= 12 else own - 12 for own in range(1, 25)])
"""Diagonal mapping: the opponent's own number of my own point (an involution)."""


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """Validate a roll of two dice, naming the bad value."""
    if not isinstance(dice, tuple | list) or len(dice) != 2:
        raise InvalidDice(f"a roll is two dice, not {dice!r}")
    for die in dice:
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise InvalidDice(f"die {die!r} is outside 1-6")
    return dice[0], dice[1]


def generate(
    position: Position, dice: tuple[int, int], *, last_roll: bool = False
) -> tuple[Play, ...]:
    """All distinct legal plays of ``position`` for ``dice`` (see module docstring)."""
    d1, d2 = check_dice(dice)
    rules = position.rules
    outcome = position.outcome()
    if last_roll:
        if not rules.last_roll:
            raise GameOver(f"{rules.name} has no last roll (LN-13)")
        if outcome is None or outcome.winner is not Side.WHITE or position.turn is not Side.BLACK:
            raise GameOver("LN-13: the last roll is Black's, after White has borne off all 15")
    elif outcome is not None:
        raise GameOver(f"the game is over ({position.text()})")
    if position.owed and (d1, d2) != (position.owed, position.owed):
        raise InvalidDice(
            f"RB-8: the complement {position.owed}-{position.owed} is owed, not {d1}-{d2}"
        )
    if rules.doubles_chain and d1 == d2 and position.is_first_turn():
        raise InvalidDice(f"RB-8: a double on the first turn is rolled again ({d1}-{d2})")
    start = to_search(position)
    successors = successors_for(position, start, d1, d2)
    if successors is _plain_successors and d1 == d2:
        finals, used = _plain_doubles(start, d1)
    else:
        finals, used = _search(start, d1, d2, successors)
    turn = _next_turn(position, d1, d2, used)

    def build(state: State) -> Position:
        return from_search(position, state, turn)

    return tuple([Play(position, route, state, build) for state, route in finals.items()])


def _next_turn(position: Position, d1: int, d2: int, used: int) -> tuple[Side, int]:
    """Who rolls next and the owed complement: RB-8 keeps the turn after a full double."""
    if position.rules.doubles_chain and d1 == d2 and used == 4:
        return position.turn, (0 if position.owed else 7 - d1)
    return position.turn.other, 0


Routes = dict[State, tuple[RawStep, ...]]


def _search(start: State, d1: int, d2: int, successors: Successors) -> tuple[Routes, int]:
    """Kept final states (BF-9) with one route each, and the number of dice used."""
    if d1 == d2:
        frontier: Routes = {start: ()}
        used = 0
        for _ in range(4):
            deeper: Routes = {}
            for state, route in frontier.items():
                for nxt, step in successors(state, d1):
                    if nxt not in deeper:
                        deeper[nxt] = (*route, step)
            if not deeper:
                break
            frontier, used = deeper, used + 1
        return (_strip(frontier) if used else {}), used
    high, low = max(d1, d2), min(d1, d2)
    after_high: Routes = {}
    after_low: Routes = {}
    for nxt, step in successors(start, high):
        after_high.setdefault(nxt, (step,))
    for nxt, step in successors(start, low):
        after_low.setdefault(nxt, (step,))
    both: Routes = {}
    for first, second in ((after_high, low), (after_low, high)):
        for state, route in first.items():
            for nxt, step in successors(state, second):
                if nxt not in both:
                    both[nxt] = (*route, step)
    if both:
        return _strip(both), 2
    if after_high:
        return _strip(after_high), 1
    return _strip(after_low), (1 if after_low else 0)


def strip_mask(state: State) -> State:
    """The state without turn-local bookkeeping (the CN-2 mask): what a play leaves."""
    return (*state[:MASK], 0, *state[MASK + 1 :]) if state[MASK] else state


def _strip(states: Routes) -> Routes:
    """Merge states that differ only in turn-local bookkeeping."""
    kept: Routes = {}
    for state, route in states.items():
        kept.setdefault(strip_mask(state), route)
    return kept


def to_search(position: Position) -> State:
    """The search tuple of ``position`` seen from the side to move."""
    side = position.turn
    own_to_abs = _OWN_TO_ABS[position.rules.mapping, side]
    sign = 1 if side is Side.WHITE else -1
    points = position.points
    cells = [0] * 29
    for own in range(1, 25):
        cells[own] = points[own_to_abs[own] - 1] * sign
    cells[BAR] = position.bar[side]
    cells[WAITING] = position.waiting[side]
    if position.rules.lone_checker == "pin":
        pins = position.pins
        cells.extend(pins[own_to_abs[own] - 1] * sign for own in range(1, 25))
    cells[OFF] = position.borne_off(side)
    return tuple(cells)


def from_search(position: Position, state: State, next_turn: tuple[Side, int]) -> Position:
    """Turn a search tuple back into a position (no re-validation: the search is exact)."""
    side = position.turn
    own_to_abs = _OWN_TO_ABS[position.rules.mapping, side]
    sign = 1 if side is Side.WHITE else -1
    points = [0] * 24
    for own in range(1, 25):
        points[own_to_abs[own] - 1] = state[own] * sign
    bar = list(position.bar)
    bar[side] = state[BAR]
    bar[side.other] += state[HITS]
    waiting = list(position.waiting)
    waiting[side] = state[WAITING]
    off = [0, 0]
    off[side] = state[OFF]
    off[side.other] = position.off[side.other]
    pins = position.pins
    if position.rules.lone_checker == "pin":
        pin_list = [0] * 24
        for own in range(1, 25):
            pin_list[own_to_abs[own] - 1] = state[PINS + own] * sign
        pins = tuple(pin_list)
    after = object.__new__(Position)
    for name, value in (
        ("rules", position.rules),
        ("points", tuple(points)),
        ("bar", (bar[0], bar[1])),
        ("waiting", (waiting[0], waiting[1])),
        ("pins", pins),
        ("turn", next_turn[0]),
        ("owed", next_turn[1]),
        ("off", (off[0], off[1])),
    ):
        object.__setattr__(after, name, value)
    return after


def successors_for(position: Position, start: State, d1: int, d2: int) -> Successors:
    """The step enumerator for ``position`` (as ``start``) rolling ``d1``-``d2``."""
    rules = position.rules
    first_turn = (rules.head_rule or rules.doubles_chain) and position.is_first_turn()
    return _successor_function(rules, start, first_turn, d1 == d2, d1)


def _successor_function(
    rules: RaceRules, start: State, first_turn: bool, double: bool, die: int
) -> Successors:
    """Build the step enumerator for one turn, with the variant's checks folded in."""
    if rules.lone_checker == "hit" and not (
        rules.no_cover_after_home_hit or rules.starts_off_board
    ):
        return _plain_successors
    lone = rules.lone_checker
    hitting, pinning = lone == "hit", lone == "pin"
    head_start = start[24]
    head_limit = 0
    if rules.head_rule:
        head_limit = 2 if first_turn and double and die in (3, 4, 6) else 1
    prime = rules.prime_rule
    runs_checked = prime != "none"
    courier = rules.courier
    no_cover = rules.no_cover_after_home_hit
    enter_two = rules.enter_two_first

    def is_open(state: State, point: int) -> bool:
        value = state[point]
        if value >= 0:
            return True
        if value == -1:
            return hitting or (pinning and state[PINS + point] != 1)
        return False

    def land(cells: list[int], point: int) -> bool:
        """Put the moving checker on ``point``; True if it hit or pinned a blot."""
        value = cells[point]
        if value == -1:
            cells[point] = 1
            if hitting:
                cells[HITS] += 1
                if no_cover and point <= 6:
                    cells[MASK] |= 1 << point
            else:
                cells[PINS + point] = -1
            return True
        cells[point] = value + 1
        return False

    def unpin(cells: list[int], point: int) -> None:
        """PK-6: the pinner's last checker leaving frees the checker it pinned."""
        if cells[point] == 0 and cells[PINS + point] == -1:
            cells[point] = -1
            cells[PINS + point] = 0

    def run_allowed(cells: list[int], point: int) -> bool:
        """LN-7 / JQ-6: newly held ``point`` must not complete a six-point run."""
        number = _OPPONENT_NUMBER[point]
        low = high = number
        while low > 1 and cells[_OPPONENT_NUMBER[low - 1]] > 0:
            low -= 1
        while high < 24 and cells[_OPPONENT_NUMBER[high + 1]] > 0:
            high += 1
        if high - low < 5:
            return True
        if prime == "unless_home_anchor":
            return cells[1] > 0 and cells[2] > 0
        return any(cells[p] < 0 and _OPPONENT_NUMBER[p] < low for p in range(1, 25))

    def enter(state: State, die: int, source: int, out: list[tuple[State, RawStep]]) -> None:
        point = 25 - die
        if is_open(state, point):
            cells = list(state)
            cells[source] -= 1
            hit = land(cells, point)
            out.append((tuple(cells), (25, point, die, hit)))

    def successors(state: State, die: int) -> list[tuple[State, RawStep]]:
        out: list[tuple[State, RawStep]] = []
        if state[BAR]:
            enter(state, die, BAR, out)
            return out
        if state[WAITING]:
            enter(state, die, WAITING, out)
            if enter_two and 15 - state[WAITING] < 2:
                return out
        high = 24
        while high > 0 and state[high] <= 0:
            high -= 1
        sources: range | tuple[int, ...] = range(high, 0, -1)
        if courier and state[24] == 14:
            # JQ-5: while the courier (the one checker off the start) is not home,
            # only it may move.
            walker = 23
            while walker > 0 and state[walker] <= 0:
                walker -= 1
            if walker > 6:
                sources = (walker,)
        bearing = high <= 6 and not state[WAITING]
        if bearing and pinning:
            bearing = all(state[PINS + p] != 1 for p in range(1, 25))
        mask = state[MASK]
        for source in sources:
            if state[source] <= 0:
                continue
            if head_limit and source == 24 and head_start - state[24] >= head_limit:
                continue
            target = source - die
            if target >= 1:
                value = state[target]
                if (value < 0 and not is_open(state, target)) or (mask >> target) & 1:
                    continue
                cells = list(state)
                cells[source] -= 1
                if pinning:
                    unpin(cells, source)
                if value >= 0:  # most steps: no blot there, nothing for land() to check
                    cells[target] = value + 1
                    hit = False
                else:
                    hit = land(cells, target)
                if runs_checked and value <= 0 and not run_allowed(cells, target):
                    continue
                out.append((tuple(cells), (source, target, die, hit)))
            elif bearing and (target == 0 or source == high):
                cells = list(state)
                cells[source] -= 1
                if pinning:
                    unpin(cells, source)
                cells[OFF] += 1
                out.append((tuple(cells), (source, 0, die, False)))
        return out

    return successors


def _plain_successors(state: State, die: int, top: int = 24) -> list[tuple[State, RawStep]]:
    """Steps of backgammon, short nardy and takhte nard: the generic rules, inlined.

    The same logic as the general enumerator without its hooks; it carries most
    of the traffic, so it is written for speed (measured in bench/movegen.py).
    ``top`` limits the sources to points at or below it (see :func:`_plain_doubles`).
    """
    out: list[tuple[State, RawStep]] = []
    if state[BAR]:
        point = 25 - die
        value = state[point]
        if value >= -1:
            cells = list(state)
            cells[BAR] -= 1
            if value == -1:
                cells[point] = 1
                cells[HITS] += 1
            else:
                cells[point] = value + 1
            out.append((tuple(cells), (25, point, die, value == -1)))
        return out
    high = 24
    while high > 0 and state[high] <= 0:
        high -= 1
    for source in range(min(high, top), 0, -1):
        if state[source] <= 0:
            continue
        target = source - die
        if target >= 1:
            value = state[target]
            if value < -1:
                continue
            cells = list(state)
            cells[source] -= 1
            if value == -1:
                cells[target] = 1
                cells[HITS] += 1
            else:
                cells[target] = value + 1
            out.append((tuple(cells), (source, target, die, value == -1)))
        elif high <= 6 and (target == 0 or source == high):
            cells = list(state)
            cells[source] -= 1
            cells[OFF] += 1
            out.append((tuple(cells), (source, 0, die, False)))
    return out


def _plain_doubles(start: State, die: int) -> tuple[Routes, int]:
    """Doubles in the plain hitting games, each multiset of steps tried once.

    In these games steps of equal size commute (a hit only opens a point, moving
    a higher checker first only helps bearing off), so every play has a route
    whose sources never increase; searching only those routes skips the
    permutations the level search would generate and then merge.
    """
    finals: Routes = {}
    best = 0

    def extend(state: State, route: tuple[RawStep, ...], top: int) -> None:
        nonlocal best
        depth = len(route)
        successors = _plain_successors(state, die, top) if depth < 4 else []
        for nxt, step in successors:
            extend(nxt, (*route, step), step[0])
        if not successors and depth >= best:
            if depth > best:
                best = depth
                finals.clear()
            finals.setdefault(state, route)

    extend(start, (), 25)
    return (finals if best else {}), best
