"""The shortcuts that make self-play fast give what the plain computation gives.

The speed work (docs/decisions.md, "Faster self-play, the same numbers") replaced
straightforward numpy with table lookups and a sparse trace update; each test here
puts one shortcut beside the plain way and wants the same numbers, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from sheshbesh.bots.nets.encode import _longest_run
from sheshbesh.bots.nets.net import Learner, Net


def plain_longest_run(held: list[bool], breaks_at_12: bool) -> int:
    """Walk the points 1–24, restarting the count at an empty point (and at 12|13
    where the diagonal seam cuts a run)."""
    best = run = 0
    for point, mine in enumerate(held, start=1):
        if point == 13 and breaks_at_12:
            run = 0
        run = run + 1 if mine else 0
        best = max(best, run)
    return best


@pytest.mark.parametrize("breaks_at_12", [False, True])
def test_the_longest_run_table_counts_runs_as_a_walk_along_the_points(breaks_at_12: bool) -> None:
    rng = np.random.default_rng(19)
    held = rng.random((2000, 24)) < rng.uniform(0.2, 0.95, (2000, 1))
    held[0], held[1] = True, False
    held[2] = [point in range(8, 18) for point in range(1, 25)]  # a run across 12|13
    looked_up = _longest_run(held, breaks_at_12)
    walked = [plain_longest_run(row.tolist(), breaks_at_12) for row in held]
    assert looked_up.tolist() == walked
    assert looked_up[2] == (5 if breaks_at_12 else 10)


def dense_observe(learner: Learner, x: np.ndarray, white_to_move: bool) -> None:
    """TD-Gammon's trace update as first written: the whole outer product of the
    gradient and the inputs, zeros included."""
    net = learner.net
    hidden, outputs = net.forward(x[None, :])
    hidden, outputs = hidden[0], outputs[0]
    slope = outputs * (1 - outputs)
    g_hidden = slope[:, None] * net.w2 * (hidden * (1 - hidden))[None, :]
    t = np.eye(len(outputs)) if white_to_move else net.flip
    g_hidden = t @ g_hidden
    learner.e_w1 *= learner.lam
    learner.e_w1 += g_hidden[:, :, None] * x[None, None, :]
    learner.e_b1 *= learner.lam
    learner.e_b1 += g_hidden
    learner.e_w2 *= learner.lam
    learner.e_w2 += (t * slope[None, :])[:, :, None] * hidden[None, None, :]
    learner.e_b2 *= learner.lam
    learner.e_b2 += t * slope[None, :]
    learner.value = outputs if white_to_move else net.flip_constant + net.flip @ outputs


@pytest.mark.parametrize("variant", ["plakoto", "russian_backgammon"])
def test_the_sparse_trace_update_learns_what_the_dense_one_does(variant: str) -> None:
    """Twenty steps of a game, sides alternating, through both updates: same traces,
    same weights."""
    rng = np.random.default_rng(7)
    fast_net, plain_net = Net.create(variant, 3), Net.create(variant, 3)
    fast, plain = Learner(fast_net), Learner(plain_net)
    inputs = fast_net.w1.shape[1]
    xs = (rng.random((20, inputs)) < 0.15) * rng.integers(1, 5, (20, inputs)) / 2
    fast.observe(xs[0], True)
    dense_observe(plain, xs[0], True)
    for step, x in enumerate(xs[1:], start=1):
        white = step % 2 == 0
        target = fast_net.forward(x[None, :])[1][0]
        assert np.array_equal(target, plain_net.forward(x[None, :])[1][0])
        fast.learn(target, white, 0.1)
        plain.learn(target, white, 0.1)
        fast.observe(x, white)
        dense_observe(plain, x, white)
        assert fast.value is not None and plain.value is not None
        assert np.array_equal(fast.value, plain.value)
    for name in ("e_w1", "e_b1", "e_w2", "e_b2"):
        assert np.array_equal(getattr(fast, name), getattr(plain, name)), name
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(fast_net, name), getattr(plain_net, name)), name
