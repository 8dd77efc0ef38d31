"""The network: one hidden layer of sigmoid units, as TD-Gammon had, in numpy.

Its outputs are the chances of the variant's outcome levels for the side to move
(:func:`~.encode.outputs_for`); :meth:`Net.equity` weighs them with the level
points, so the same weights serve a table that pays mars and one that does not.

Training is TD(λ) (Sutton 1988, Tesauro 1992) on a value seen from one fixed side,
White: a position with Black to move has White's chances ``flip(outputs)``, a
linear map (``win`` ↔ ``1 − win − draw``, ``win2`` ↔ ``lose2``, …). Keeping the
eligibility traces in White's terms lets one trace run through the whole game
while the side to move changes every turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np

from sheshbesh.games.race import RaceRules

from .encode import OUTCOMES, finished, input_names, outputs_for

HIDDEN = 80


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-x))`` with ``x`` held to ±40, in place (``x`` is a temporary)."""
    np.maximum(x, -40.0, out=x)
    np.minimum(x, 40.0, out=x)
    np.negative(x, out=x)
    np.exp(x, out=x)
    x += 1.0
    squashed: np.ndarray = np.divide(1.0, x, out=x)
    return squashed


def flip_matrix(outputs: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``(T, c)`` with ``other side's outputs = c + T @ outputs``."""
    k = len(outputs)
    index = {name: i for i, name in enumerate(outputs)}
    t = np.zeros((k, k))
    c = np.zeros(k)
    swaps = {"win2": "lose2", "lose2": "win2", "win3": "lose3", "lose3": "win3"}
    for i, name in enumerate(outputs):
        if name == "win":  # the other side wins when I neither win nor draw
            c[i] = 1.0
            t[i, index["win"]] = -1.0
            if "draw" in index:
                t[i, index["draw"]] = -1.0
        elif name == "draw":
            t[i, i] = 1.0
        else:
            t[i, index[swaps[name]]] = 1.0
    return t, c


@dataclass
class Net:
    """Weights of one variant's net; :meth:`create` for fresh ones, :meth:`load` for saved."""

    variant: str
    w1: np.ndarray
    """(hidden, inputs)"""
    b1: np.ndarray
    w2: np.ndarray
    """(outputs, hidden)"""
    b2: np.ndarray
    games: int = 0
    """Self-play games these weights have learnt from."""
    outputs: tuple[str, ...] = field(init=False)
    rules: RaceRules = field(init=False)
    _outcome_columns: list[int] = field(init=False, repr=False)
    """Where each output is in :data:`~.encode.OUTCOMES`."""

    def __post_init__(self) -> None:
        from sheshbesh.games.race.position import find_rules

        self.rules = find_rules(self.variant)
        self.outputs = outputs_for(self.rules)
        inputs = len(input_names(self.rules))
        if self.w1.shape[1] != inputs or self.w2.shape[0] != len(self.outputs):
            raise ValueError(
                f"{self.variant} weights have shape {self.w1.shape}/{self.w2.shape}; "
                f"the encoder has {inputs} inputs and {len(self.outputs)} outputs"
            )
        self.flip, self.flip_constant = flip_matrix(self.outputs)
        self._outcome_columns = [OUTCOMES.index(name) for name in self.outputs]

    @classmethod
    def create(cls, variant: str, seed: int, hidden: int = HIDDEN) -> Net:
        from sheshbesh.games.race.position import find_rules

        rules = find_rules(variant)
        rng = np.random.default_rng(seed)
        inputs, outputs = len(input_names(rules)), len(outputs_for(rules))
        return cls(
            rules.name,
            rng.uniform(-0.1, 0.1, (hidden, inputs)),
            np.zeros(hidden),
            rng.uniform(-0.1, 0.1, (outputs, hidden)),
            np.zeros(outputs),
        )

    def grow(self, hidden: int, seed: int) -> None:
        """Widen the hidden layer to ``hidden`` units, the new ones with small random
        inputs and no say in the outputs yet: the net plays exactly as before, and
        training gives the new units their part (more capacity for a net that has
        stopped gaining at its size, as TD-Gammon's later versions had)."""
        extra = hidden - self.w1.shape[0]
        if extra < 0:
            raise ValueError(f"the net has {self.w1.shape[0]} hidden units, more than {hidden}")
        if extra == 0:
            return
        rng = np.random.default_rng(seed)
        self.w1 = np.concatenate([self.w1, rng.uniform(-0.1, 0.1, (extra, self.w1.shape[1]))])
        self.b1 = np.concatenate([self.b1, np.zeros(extra)])
        self.w2 = np.concatenate([self.w2, np.zeros((self.w2.shape[0], extra))], axis=1)

    # --- evaluation ---------------------------------------------------------------

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and outputs for a batch of inputs ``x`` (n × inputs)."""
        hidden = x @ self.w1.T
        hidden += self.b1
        hidden = _sigmoid(hidden)
        outputs = hidden @ self.w2.T
        outputs += self.b2
        return hidden, _sigmoid(outputs)

    def level_weights(self, values: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
        """Equity per output: what a double and a triple win add over a single one."""
        weight = {"win": 2.0, "draw": 1.0, "win2": values[0], "lose2": -values[0]}
        weight |= {"win3": values[1], "lose3": -values[1]}
        return np.array([weight[name] for name in self.outputs])

    def equity(self, outputs: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """Points a game for the side to move: ``2·win + draw − 1`` plus the extra levels."""
        points: np.ndarray = outputs @ weights - 1.0
        return points

    def exact(self, views: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which views are over, and their outcomes in this net's outputs."""
        done, result = finished(views, self.rules)
        return done, result[:, self._outcome_columns]

    # --- files ----------------------------------------------------------------------

    def save(self, path: Path | str) -> None:
        np.savez_compressed(
            path, variant=self.variant, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2,
            games=self.games,
        )  # fmt: skip

    @classmethod
    def load(cls, source: Path | str | IO[bytes], *, widen: bool = False) -> Net:
        """The saved weights; ``widen`` lets weights from before inputs were added at the
        end of the variant's encoding load with zero weights on the new inputs, so the
        net plays exactly as before until training gives them weight."""
        with np.load(source, allow_pickle=False) as data:
            variant, w1 = str(data["variant"]), data["w1"]
            if widen:
                from sheshbesh.games.race.position import find_rules

                missing = len(input_names(find_rules(variant))) - w1.shape[1]
                if missing > 0:
                    w1 = np.concatenate([w1, np.zeros((w1.shape[0], missing))], axis=1)
            return cls(variant, w1, data["b1"], data["w2"], data["b2"], int(data["games"]))


class Learner:
    """TD(λ) for one game at a time: :meth:`start`, then :meth:`step` per new position.

    Values and traces are in White's terms (see the module docstring); ``white_to_move``
    tells each step which way the net's outputs face.
    """

    def __init__(self, net: Net, lam: float = 0.7) -> None:
        self.net = net
        self.lam = lam
        k, h = net.w2.shape
        self.e_w1 = np.zeros((k, *net.w1.shape))
        self.e_b1 = np.zeros((k, h))
        self.e_w2 = np.zeros((k, k, h))
        self.e_b2 = np.zeros((k, k))
        self.value: np.ndarray | None = None

    def start(self) -> None:
        for trace in (self.e_w1, self.e_b1, self.e_w2, self.e_b2):
            trace.fill(0.0)
        self.value = None

    def _white(self, outputs: np.ndarray, white_to_move: bool) -> np.ndarray:
        if white_to_move:
            return outputs
        flipped: np.ndarray = self.net.flip_constant + self.net.flip @ outputs
        return flipped

    def observe(self, x: np.ndarray, white_to_move: bool) -> None:
        """Take the position ``x`` (one input row) as the one being learnt about now.

        Every trace decays by λ, then gains this position's gradient. ``x`` is mostly
        zeros (a point's thresholds are zero where the side has no checkers), and a
        zero input adds nothing to its column of ``e_w1``, so only the others are
        added to: the same numbers as the whole outer product, at a fraction of it.
        """
        net = self.net
        hidden, outputs = net.forward(x[None, :])
        hidden, outputs = hidden[0], outputs[0]
        slope = outputs * (1 - outputs)  # (k,)
        g_hidden = slope[:, None] * net.w2 * (hidden * (1 - hidden))[None, :]  # (k, h)
        if white_to_move:
            g_out = np.diag(slope)
        else:
            g_hidden = net.flip @ g_hidden
            g_out = net.flip * slope[None, :]
        active = np.flatnonzero(x)
        self.e_w1 *= self.lam
        self.e_w1[:, :, active] += g_hidden[:, :, None] * x[active]
        self.e_b1 *= self.lam
        self.e_b1 += g_hidden
        self.e_w2 *= self.lam
        self.e_w2 += g_out[:, :, None] * hidden[None, None, :]
        self.e_b2 *= self.lam
        self.e_b2 += g_out
        self.value = self._white(outputs, white_to_move)

    def learn(self, target: np.ndarray, white_to_move: bool, alpha: float) -> None:
        """Move the last observed value towards ``target`` (outputs facing the side to move
        of the position ``target`` belongs to)."""
        assert self.value is not None
        delta = alpha * (self._white(target, white_to_move) - self.value)
        net = self.net
        net.w1 += (delta @ self.e_w1.reshape(len(delta), -1)).reshape(net.w1.shape)
        net.b1 += delta @ self.e_b1
        net.w2 += (delta @ self.e_w2.reshape(len(delta), -1)).reshape(net.w2.shape)
        net.b2 += delta @ self.e_b2


__all__ = ["HIDDEN", "Learner", "Net", "flip_matrix"]
