"""Backgammon move generation against GNU Backgammon (the oracle: PyPI ``gnubg``).

For every position of seeded random games and all 21 rolls, gnubg's list of legal
plays must match ours: the same number of plays, every complete gnubg move leads
to one of our resulting positions, and every truncated one (gnubg stops writing a
move at its first bear-off) is the start of one of our plays.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import gnubg
import pytest
from gnubg_oracle import CONTEXT, CUBE, ROLLS, apply_steps, gnubg_steps, mover_view

from sheshbesh.games.race import Position, Side
from sheshbesh.games.race.ids import Board, gnubg_board


def random_positions(seed: int, games: int) -> Iterator[Position]:
    """Every position met in ``games`` random games (uniformly random legal plays)."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.start("backgammon", turn=rng.choice(list(Side)))
        while position.outcome() is None:
            yield position
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            position = rng.choice(plays).after if plays else position.pass_turn()


def tail_results(board: Board, dice: list[int]) -> set[Board]:
    """Every board reachable by playing all of ``dice`` in a bear-off (truncated tails)."""
    if not dice:
        return {board}
    results: set[Board] = set()
    opponent, mover = board
    highest = max((p for p in range(1, 26) if mover[p - 1]), default=0)
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for src in range(1, 26):
            if not mover[src - 1]:
                continue
            dst = src - die
            if dst >= 1 and opponent[24 - dst] < 2:
                results |= tail_results(apply_steps(board, [(src, dst)]), rest)
            elif dst < 1 and highest <= 6 and (dst == 0 or src == highest):
                results |= tail_results(apply_steps(board, [(src, 0)]), rest)
    return results


def compare(position: Position, dice: tuple[int, int], tally: Counter[str]) -> None:
    board = gnubg_board(position)
    ours = position.legal_plays(dice)
    theirs = gnubg.find_best_moves(board, CUBE, CONTEXT, dice)
    label = f"{position.id()} {position.text()} roll {dice}"
    assert len(theirs) == len(ours), (label, [p.notation() for p in ours])
    our_boards = {mover_view(play) for play in ours}
    dice_count = 4 if dice[0] == dice[1] else 2
    used = len(ours[0].steps) if ours else 0
    for entry in theirs:
        steps, cut = gnubg_steps(entry["move"])
        after = apply_steps(board, steps)
        if not cut or len(steps) == used:
            assert after in our_boards, (label, entry["move"])
            continue
        tally["truncated"] += 1
        remaining = [dice[0]] * dice_count if dice[0] == dice[1] else list(dice)
        for src, dst in steps:
            if dst or src in remaining:
                remaining.remove(src - dst)
            else:
                remaining.remove(min(d for d in remaining if d > src))
        tails = tail_results(after, remaining[: used - len(steps)])
        assert tails & our_boards, (label, entry["move"])
    tally["pairs"] += 1
    tally["no play"] += not ours
    tally["one die"] += bool(ours) and dice[0] != dice[1] and used == 1
    tally["bar"] += position.bar[position.turn] > 0
    tally["bear-off"] += any(step.dst == 0 for play in ours for step in play.steps)
    tally["hit"] += any(step.hit for play in ours for step in play.steps)


@pytest.mark.slow
def test_bf9_legal_plays_match_gnubg_over_random_games() -> None:
    """BF-7…BF-12 and BG-5…BG-7: identical play sets on ≥ 10 000 (position, roll) pairs."""
    tally: Counter[str] = Counter()
    for position in random_positions(seed=2026, games=14):
        for dice in ROLLS:
            compare(position, dice, tally)
    assert tally["pairs"] >= 10_000, tally
    for kind in ("no play", "one die", "bar", "bear-off", "hit", "truncated"):
        assert tally[kind] >= 50, (kind, tally)


def test_start_position_counts_match_gnubg() -> None:
    """The opening roll table: gnubg's count of plays for every roll from the start."""
    tally: Counter[str] = Counter()
    start = Position.start("backgammon")
    for dice in ROLLS:
        compare(start, dice, tally)
    assert tally["pairs"] == 21


def test_cli_contract_example_position_ids() -> None:
    """The contract's example: 3-1 from the start, 8/5 6/5 gives sGfwATDgc/ABMA."""
    start = Position.from_id("4HPwATDgc/ABMA")
    plays = {play.notation(): play.after.id() for play in start.legal_plays((3, 1))}
    assert plays["8/5 6/5"] == "sGfwATDgc/ABMA"
    assert gnubg.position_from_id(plays["8/5 6/5"]) == gnubg_board(
        start.play((3, 1), "8/5 6/5").after
    )
