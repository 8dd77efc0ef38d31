"""A race position as the net's inputs, per variant, from the side to move's view.

Two steps, both over a whole batch of candidate positions at once (numpy):

1. :func:`view_of` / :func:`views_after` put each position in one integer row
   from the side to move's *own* numbering (:data:`VIEW` says which column is
   what). Candidate plays arrive as the move generator's search tuples, so no
   :class:`Position` is built for a play the net only looks at.
2. :func:`encode` turns views into inputs, each of which means something a
   player would name: checkers per point (gnubg's thresholds), the bar and
   unentered checkers, borne off, pips, and what the variant's own rules make
   matter (heads, blocks and LN-7's six-point run, Plakoto's pins and mothers,
   Jacquet's courier, Russian backgammon's owed complement, and in the hitting
   games the shots at each side's blots). :func:`input_names`
   names every column, so tests and curious players can read an encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from sheshbesh.games.race import Position, RaceRules
from sheshbesh.games.race.movegen import BAR, HITS, OFF, PINS, WAITING, to_search
from sheshbesh.games.race.moves import Play

# --- the view: one row of ints per position, side to move first ---------------------

BOARD = slice(0, 24)
"""Own points 1–24 of the side to move: > 0 its free checkers, < 0 the opponent's."""
MY_BAR, THEIR_BAR, MY_NEW, THEIR_NEW, MY_OFF, THEIR_OFF = 24, 25, 26, 27, 28, 29
PINNED = slice(30, 54)
"""Plakoto: +1 where a checker of the side to move is pinned, -1 where an opponent's is."""
OWED = 54
"""RB-8: the complement die the side to move still plays four times (0: none)."""
VIEW = 55

_OPPONENT_POINT = {
    "opposite": tuple(25 - own for own in range(1, 25)),
    "diagonal": tuple(own + 12 if own <= 12 else own - 12 for own in range(1, 25)),
    "shared": tuple(range(1, 25)),
}
"""Per mapping: for each own point 1–24, the opponent's own number of it (an involution)."""


_PERMS = {
    mapping: np.array(points, dtype=np.intp) - 1 for mapping, points in _OPPONENT_POINT.items()
}


def _perm(rules: RaceRules) -> np.ndarray:
    """Column ``q - 1`` of the result is the column of the opponent's own point ``q``."""
    return _PERMS[rules.mapping]


def view_of(position: Position) -> np.ndarray:
    """The view (shape ``(VIEW,)``) of ``position`` for its side to move."""
    side = position.turn
    key = to_search(position)
    row = np.zeros(VIEW, dtype=np.int64)
    row[BOARD] = key[1:25]
    row[MY_BAR], row[THEIR_BAR] = key[BAR], position.bar[side.other]
    row[MY_NEW], row[THEIR_NEW] = key[WAITING], position.waiting[side.other]
    row[MY_OFF], row[THEIR_OFF] = key[OFF], position.off[side.other]
    if position.rules.lone_checker == "pin":
        row[PINNED] = key[PINS + 1 : PINS + 25]
    row[OWED] = position.owed
    return row


@cache
def _copied_cells(mapping: str, pinning: bool, keeps: bool) -> tuple[np.ndarray, np.ndarray]:
    """For each view column after a play: the search-tuple cell it copies, and the sign
    (0 where the column is the side not moving's own count, which the play leaves)."""
    cell = np.zeros(VIEW, dtype=np.intp)
    sign = np.zeros(VIEW, dtype=np.int64)
    if keeps:  # the mover is still the side to move
        own = np.arange(1, 25)
        copies = {MY_BAR: BAR, THEIR_BAR: HITS, MY_NEW: WAITING, MY_OFF: OFF}
        facing = 1
    else:
        own = _PERMS[mapping] + 1
        copies = {MY_BAR: HITS, THEIR_BAR: BAR, THEIR_NEW: WAITING, THEIR_OFF: OFF}
        facing = -1
    cell[BOARD], sign[BOARD] = own, facing
    for column, copied in copies.items():
        cell[column], sign[column] = copied, 1
    if pinning:
        cell[PINNED], sign[PINNED] = PINS + own, facing
    return cell, sign


def views_after(before: Position, plays: Sequence[Play]) -> tuple[np.ndarray, bool]:
    """The views of the positions ``plays`` leave, for whoever moves next, and whether
    that is still the mover (RB-8: a full double keeps the roll; every play of one roll
    uses as many dice, so the first play says it for all).

    Each column copies one cell of the plays' search tuples (:func:`_copied_cells`),
    plus what the side not moving had before: three numpy calls for the whole batch.
    """
    keys = np.array([play.key for play in plays], dtype=np.int64)
    mover = before.turn
    other = mover.other
    # Only RB-8 keeps the roll; asking the others would build a position for nothing.
    keeps = bool(before.rules.doubles_chain) and plays[0].after.turn is mover
    cell, sign = _copied_cells(before.rules.mapping, before.rules.lone_checker == "pin", keeps)
    unmoved = np.zeros(VIEW, dtype=np.int64)
    if keeps:
        unmoved[THEIR_BAR] = before.bar[other]
        unmoved[THEIR_NEW] = before.waiting[other]
        unmoved[THEIR_OFF] = before.off[other]
        unmoved[OWED] = plays[0].after.owed
    else:
        unmoved[MY_BAR] = before.bar[other]
        unmoved[MY_NEW] = before.waiting[other]
        unmoved[MY_OFF] = before.off[other]
    rows = keys[:, cell]
    rows *= sign
    rows += unmoved
    return rows, keeps


# --- outcomes read off a view ---------------------------------------------------------

OUTCOMES = ("win", "win2", "win3", "lose2", "lose3", "draw")
"""Every outcome level a net may predict, for the side to move; each variant has some."""


def outputs_for(rules: RaceRules) -> tuple[str, ...]:
    """The outputs this variant's net predicts: its levels (BF-13) and Plakoto's draw (PK-9).

    A Plakoto mother win counts 2 (PK-10), so it is inside ``win2``: the points, which
    are all equity sees, are the same as a double win's.
    """
    names = ["win", "win2"]
    if rules.backgammon_level:
        names.append("win3")
    names.append("lose2")
    if rules.backgammon_level:
        names.append("lose3")
    if rules.mother_rule:
        names.append("draw")
    return tuple(names)


def finished(views: np.ndarray, rules: RaceRules) -> tuple[np.ndarray, np.ndarray]:
    """Which views are over, and their outcome (a ``(n, len(OUTCOMES))`` 0/1 array)
    for the side to move: BF-13, BG-8/RB-10 levels, PK-9 mothers (as ``judge`` does)."""
    n = len(views)
    result = np.zeros((n, len(OUTCOMES)))
    board = views[:, BOARD]
    mine_off, theirs_off = views[:, MY_OFF], views[:, THEIR_OFF]
    i_won = mine_off == 15
    they_won = theirs_off == 15
    done = i_won | they_won
    pinned = views[:, PINNED]
    their_mother_point = _perm(rules)[23]
    mothers_pinned = rules.mother_rule and bool(
        ((pinned[:, 23] == 1) | (pinned[:, their_mother_point] == -1)).any()
    )
    if not done.any() and not mothers_pinned:
        return done, result  # the common case, mid-game: nothing to read
    if rules.backgammon_level:
        perm = _perm(rules)
        theirs_own = np.maximum(-board, 0)[:, perm]
        mine_own = np.maximum(board, 0)
        their_strays = views[:, THEIR_NEW] + views[:, THEIR_BAR] + theirs_own[:, 18:].sum(1)
        their_strays = their_strays + (pinned[:, perm] == -1)[:, 18:].sum(1)
        my_strays = views[:, MY_NEW] + views[:, MY_BAR] + mine_own[:, 18:].sum(1)
        my_strays = my_strays + (pinned == 1)[:, 18:].sum(1)
    else:
        their_strays = my_strays = np.zeros(n)
    result[:, 0] = i_won
    result[:, 1] = i_won & (theirs_off == 0)
    result[:, 2] = i_won & (theirs_off == 0) & (their_strays > 0) & rules.backgammon_level
    result[:, 3] = they_won & (mine_off == 0)
    result[:, 4] = they_won & (mine_off == 0) & (my_strays > 0) & rules.backgammon_level
    if rules.mother_rule:
        mine_pinned = (pinned[:, 23] == 1) & ~done
        theirs_pinned = (pinned[:, their_mother_point] == -1) & ~done
        draw = mine_pinned & theirs_pinned
        i_mother = theirs_pinned & ~mine_pinned & (board[:, 23] <= 0)
        they_mother = mine_pinned & ~theirs_pinned & (board[:, their_mother_point] >= 0)
        result[:, 0] += i_mother
        result[:, 1] += i_mother
        result[:, 3] += they_mother
        result[:, 5] = draw
        done = done | draw | i_mother | they_mother
    return done, result


# --- inputs -------------------------------------------------------------------------------

START_PIPS = {"opposite": 167, "diagonal": 360, "shared": 375}
"""Pips at the start, to scale pip counts: long nardy, Plakoto and Jacquet start on one
point (15 × 24), Russian backgammon outside the board (15 × 25)."""


def input_names(rules: RaceRules) -> tuple[str, ...]:
    """What each input column means, in order (``my3@13``: I have ≥ 3 on my 13 point)."""
    names: list[str] = []
    for who in ("my", "their"):
        for point in range(1, 25):
            names += [f"{who}1@{point}", f"{who}2@{point}", f"{who}3@{point}", f"{who}more@{point}"]
    for who in ("my", "their"):
        names += [f"{who}_off", f"{who}_pips"]
        if rules.has_bar:
            names.append(f"{who}_bar")
        if rules.starts_off_board:
            names += [f"{who}_unentered", f"{who}_entering_two"]
        names.append(f"{who}_block")
        if rules.lone_checker == "block":
            names += [f"{who}_head", f"{who}_front"]
        if rules.prime_rule == "unless_passed":
            names.append(f"{who}_prime_legal")
        if rules.prime_rule == "unless_home_anchor":
            names.append(f"{who}_anchor_1_2")
        if rules.courier:
            names += [f"{who}_courier_travelling", f"{who}_courier_at"]
        if rules.mother_rule:
            names += [f"{who}_mother_alone", f"{who}_mother_pinned", f"{who}_pinned"]
    if rules.mother_rule:
        for who in ("my", "their"):
            names += [f"{who}_pinned@{point}" for point in range(1, 25)]
    if rules.doubles_chain:
        names += [f"owed{die}" for die in range(1, 7)]
    if rules.has_bar:
        for who in ("my", "their"):
            names += [f"{who}_blots_hit", f"{who}_blot_pips"]
    return tuple(names)


def _threshold_table(sign: int) -> np.ndarray:
    """gnubg's per-point inputs (≥ 1, ≥ 2, ≥ 3, and (n − 3) / 2 above three) of one
    side's checkers on a view's point, looked up by the point's value + 15."""
    table = np.zeros((31, 4))
    for value in range(-15, 16):
        count = max(sign * value, 0)
        table[value + 15] = count >= 1, count >= 2, count >= 3, max(count - 3, 0) / 2
    return table


_MY_THRESHOLDS, _THEIR_THRESHOLDS = _threshold_table(1), _threshold_table(-1)


_BITS = 1 << np.arange(24, dtype=np.int64)
"""Bit ``p - 1`` stands for own point p."""


def _run_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each 12-bit half of a board: its longest run of set bits, the run up from its
    lowest bit, and the run down from its highest bit."""
    longest, from_low, from_high = (np.zeros(4096, dtype=np.int64) for _ in range(3))
    for half in range(4096):
        runs = [len(run) for run in f"{half:012b}".split("0")]
        longest[half], from_high[half], from_low[half] = max(runs), runs[0], runs[-1]
    return longest, from_low, from_high


_LONGEST, _FROM_LOW, _FROM_HIGH = _run_tables()


def _longest_run(held: np.ndarray, breaks_at_12: bool) -> np.ndarray:
    """The longest run of consecutive held points along the opponent's route.

    Looked up per half board (own 1–12 and 13–24); a run across the halves joins the
    run down from my 12 to the run up from my 13, except in the diagonal games (LN-1,
    JQ-1), where my 12 and 13 are the opponent's 24 and 1.
    """
    points = held.astype(np.int64) @ _BITS
    low, high = points & 0xFFF, points >> 12
    best: np.ndarray = np.maximum(_LONGEST[low], _LONGEST[high])
    if not breaks_at_12:
        best = np.maximum(best, _FROM_HIGH[low] + _FROM_LOW[high])
    return best


def _side_features(
    rules: RaceRules,
    own: np.ndarray,
    foe_own: np.ndarray,
    off: np.ndarray,
    bar: np.ndarray,
    new: np.ndarray,
    pinned_own: np.ndarray | None,
    foe_pinned_in_own: np.ndarray | None,
) -> np.ndarray:
    """Summary inputs (one row per side, one column per input) from the side's own
    numbering (``own[:, p - 1]``: its point p); ``foe_own`` is the opponent's checkers
    in the opponent's own numbering. The pins are ``None`` in the games without them."""
    points = np.arange(1, 25)
    pips = (own if pinned_own is None else own + pinned_own) @ points + 25 * (bar + new)
    columns = [off / 15, pips / START_PIPS[rules.mapping]]
    if rules.has_bar:
        columns.append(bar / 2)
    if rules.starts_off_board:
        columns += [new / 15, (new > 13).astype(float)]  # RB-5: fewer than two entered
    # A point blocks the opponent with one checker (LN-4, JQ-4), else with two, or with
    # one that pins (PK-4).
    if rules.lone_checker == "block":
        held = own > 0
    elif foe_pinned_in_own is None:
        held = own >= 2
    else:
        held = (own >= 2) | (foe_pinned_in_own > 0)
    columns.append(_longest_run(held, rules.mapping == "diagonal") / 6)
    if rules.lone_checker == "block":
        columns.append(own[:, 23] / 15)  # the head (LN-5)
        occupied = own > 0
        front = np.where(occupied.any(1), np.argmax(occupied, axis=1) + 1, 0)
        columns.append(front / 24)  # how far my leading checker has gone
    if rules.prime_rule == "unless_passed":
        # LN-7: a run of six is legal only ahead of an opponent's checker; the
        # opponent's leading checker in its own numbers says where one may stand.
        foe_occupied = foe_own > 0
        foe_front = np.where(foe_occupied.any(1), np.argmax(foe_occupied, axis=1) + 1, 25)
        columns.append((foe_front <= 18).astype(float))
    if rules.prime_rule == "unless_home_anchor":
        columns.append(((own[:, 0] > 0) & (own[:, 1] > 0)).astype(float))  # JQ-6
    if rules.courier:
        # JQ-5: one checker off the start and not yet home: only it may move.
        off_start = own.copy()
        off_start[:, 23] = 0
        walker = np.where((off_start > 0).any(1), 24 - np.argmax(off_start[:, ::-1] > 0, axis=1), 0)
        travelling = (own[:, 23] == 14) & (walker > 6)
        columns += [travelling.astype(float), np.where(travelling, walker, 0) / 24]
    if rules.mother_rule:
        assert pinned_own is not None
        # PK-9: the mother is the last checker on own 24; pinned there, it loses the game.
        columns.append(((own[:, 23] == 1) & (pinned_own[:, 23] == 0)).astype(float))
        columns.append(pinned_own[:, 23].astype(float))
        columns.append(pinned_own.sum(1) / 15)
    return np.stack(columns, axis=1)


# --- shots: what hitting games add (Caucasian nardy, Russian backgammon) ------------------


def _rolls() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The 15 mixed rolls' dice, the 6 doubles' die, and the 21 rolls' weights (of 36)."""
    mixed = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]
    first = np.array([a for a, _ in mixed], dtype=np.int64)
    second = np.array([b for _, b in mixed], dtype=np.int64)
    weight = np.array([2.0] * len(mixed) + [1.0] * 6)
    return first, second, np.arange(1, 7, dtype=np.int64), weight


_FIRST, _SECOND, _DOUBLE, _ROLL_WEIGHT = _rolls()
_LANE_POINTS = np.arange(1, 25, dtype=np.int64)
"""Lane points 1–24: each one's bit in a lane mask."""


def _lane_mask(lanes: np.ndarray) -> np.ndarray:
    """Rows of 24 booleans (lane points 1–24) as bit masks, bit x for lane point x."""
    mask: np.ndarray = lanes.astype(np.int64) @ _BITS << 1
    return mask


def _shots(
    rules: RaceRules,
    own: np.ndarray,
    foe_own: np.ndarray,
    foe_bar: np.ndarray,
    foe_new: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """For each side (rows as in :func:`_side_features`): the share of the opponent's 36
    rolls that hit one of its blots were the opponent to roll now, and the pips such a
    roll costs it on average (the furthest-travelled blot it can hit, over 25).

    Worked along the opponent's lane as bit masks: lane point x (1–24) is the
    opponent's own point 25 − x, so a step of d shifts the opponent's checkers d bits
    up; bit 0 is its bar and its unentered checkers. A shot of two or more steps
    needs each point it touches down on open (not two of the blot's side: BF-8).
    Checkers on the bar enter first (BF-11, RB-6): each takes a die, or a step of a
    double, whose entry point is open, and only what is left moves the rest. The
    exact rules sometimes differ (BF-9's maximum can forbid the hitting play); against
    every legal play of all 36 rolls these counts are exact in about 99 % of the
    positions of random games (tests/bots/test_nets.py).
    """
    lane = _perm(rules)[24 - _LANE_POINTS]  # own column of lane point x = 1 … 24
    mine = own[:, lane]
    blots = _lane_mask(mine == 1)[:, None]
    open_ = (_lane_mask(mine < 2) | 1)[:, None]
    field = (_lane_mask(foe_own[:, ::-1] > 0) | (foe_new > 0))[:, None]
    entering = np.minimum(foe_bar, 4)[:, None]
    free = np.where(entering == 0, field, 0)
    one = entering == 1
    a, b = _FIRST, _SECOND
    # Mixed rolls: a free checker moves one die or both; with one checker on the bar it
    # enters (perhaps hitting, perhaps going on) and the other die moves anything;
    # with two or more, both dice enter.
    by_a, by_b = free << a, free << b
    reach = by_a | by_b | ((by_a & open_) << b) | ((by_b & open_) << a)
    enter_a, enter_b = 1 << a, 1 << b
    reach |= np.where(entering > 0, enter_a | enter_b, 0)
    reach |= np.where(one, ((enter_a & open_) << b) | ((enter_b & open_) << a), 0)
    reach |= np.where(one & ((open_ >> a) & 1 == 1), field << b, 0)
    reach |= np.where(one & ((open_ >> b) & 1 == 1), field << a, 0)
    # Doubles: four steps; the bar's checkers take the first ones, one of them may go
    # on with what the others leave, and the rest move with the steps left over.
    d = _DOUBLE
    bar_steps = np.where(entering > 0, 5 - entering, 0)
    rest_steps = np.where((entering > 0) & ((open_ >> d) & 1 == 1), 4 - entering, 0)
    doubles = np.zeros((len(own), 6), dtype=np.int64)
    walking = np.broadcast_to(free, doubles.shape)
    from_bar = np.where(entering > 0, 1, 0) + doubles
    resting = np.where(entering > 0, field, 0) + doubles
    for step in range(1, 5):
        walking, from_bar, resting = walking << d, from_bar << d, resting << d
        doubles |= walking
        doubles |= np.where(step <= bar_steps, from_bar, 0)
        doubles |= np.where(step <= rest_steps, resting, 0)
        walking, from_bar, resting = walking & open_, from_bar & open_, resting & open_
    hits = np.concatenate([reach, doubles], axis=1) & blots  # (rows, 21): lane bits hit
    chance = (hits != 0) @ _ROLL_WEIGHT / 36
    travelled = 24 - lane  # pips a blot on lane point x has come: 25 − its own point
    hit_points = (hits[:, :, None] >> _LANE_POINTS) & 1
    pips = (hit_points * travelled).max(axis=2) @ _ROLL_WEIGHT / (36 * 25)
    return chance, pips


def encode(views: np.ndarray, rules: RaceRules) -> np.ndarray:
    """Inputs (``(n, len(input_names(rules)))`` floats) of ``views`` of ``rules``' game.

    Both sides' summary inputs come from one :func:`_side_features` call on the sides
    stacked (rows ``:n`` the side to move, ``n:`` its opponent): each is worked out
    row by row, and half the numpy calls is most of the time on a few dozen rows.
    """
    n = len(views)
    board = views[:, BOARD]
    perm = _perm(rules)
    mine = np.maximum(board, 0)
    theirs_own = np.maximum(-board, 0)[:, perm]
    own = np.concatenate([mine, theirs_own])
    foe_own = np.concatenate([theirs_own, mine])
    pinned_own = foe_pinned = None
    if rules.lone_checker == "pin":
        pinned = views[:, PINNED]
        mine_pinned = (pinned == 1).astype(np.int64)
        theirs_pinned = (pinned == -1).astype(np.int64)
        pinned_own = np.concatenate([mine_pinned, theirs_pinned[:, perm]])
        foe_pinned = np.concatenate([theirs_pinned, mine_pinned[:, perm]])

    def both(mine_column: int) -> np.ndarray:
        """The column for the side to move, then the next one (its opponent's) below."""
        return views[:, mine_column : mine_column + 2].T.ravel()

    summary = _side_features(
        rules, own, foe_own, both(MY_OFF), both(MY_BAR), both(MY_NEW), pinned_own, foe_pinned
    )
    cells = board + 15
    columns = [
        _MY_THRESHOLDS[cells].reshape(n, 96),
        _THEIR_THRESHOLDS[cells].reshape(n, 96),
        summary[:n],
        summary[n:],
    ]
    if rules.mother_rule:
        columns += [mine_pinned, theirs_pinned]
    if rules.doubles_chain:
        owed = views[:, OWED]
        columns.append(owed[:, None] == np.arange(1, 7)[None, :])
    if rules.has_bar:
        foe_bar = np.concatenate([views[:, THEIR_BAR], views[:, MY_BAR]])
        foe_new = np.concatenate([views[:, THEIR_NEW], views[:, MY_NEW]])
        chance, pips = _shots(rules, own, foe_own, foe_bar, foe_new)
        columns += [np.stack([chance[:n], pips[:n], chance[n:], pips[n:]], axis=1)]
    return np.concatenate(columns, axis=1, dtype=np.float64)


__all__ = [
    "OUTCOMES",
    "VIEW",
    "encode",
    "finished",
    "input_names",
    "outputs_for",
    "view_of",
    "views_after",
]
