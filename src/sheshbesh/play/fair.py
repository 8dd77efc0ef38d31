"""The server's dice source: a :class:`DiceBox` behind the :class:`DiceSource` protocol.

The box holds the committed, unrevealed seed of the next roll; the server keeps
it outside the public record (it is the one secret of a game) and persists it
with the game so a restart rolls exactly the committed seed.

>>> seeds = iter(bytes([n]) * 32 for n in range(1, 100))
>>> fair = FairDice.open(lambda: next(seeds), server_nonce=lambda: "server")
>>> first_commit = fair.commit
>>> rolled = fair.roll("client-nonce", 2)
>>> rolled.proof["commit"] == first_commit, rolled.next_commit == fair.commit
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Rolled
from .dice import DiceBox


class FairDice:
    """Rolls from a fair-dice box, keeping the box for the next roll."""

    def __init__(
        self, box: DiceBox, new_seed: Callable[[], bytes], server_nonce: Callable[[], str]
    ) -> None:
        self.box = box
        self.new_seed = new_seed
        self.server_nonce = server_nonce

    @classmethod
    def open(cls, new_seed: Callable[[], bytes], server_nonce: Callable[[], str]) -> FairDice:
        """A fresh box, already committed to the first roll's seed."""
        return cls(DiceBox.open(new_seed), new_seed, server_nonce)

    @property
    def commit(self) -> str:
        """The commitment to publish before the next roll."""
        return self.box.commit

    def roll(self, nonce: str | None, count: int) -> Rolled:
        """Roll with the client's nonce (or the server's), returning what to publish."""
        dice, proof, self.box = self.box.roll(nonce or self.server_nonce(), self.new_seed, count)
        return Rolled(dice, dict(proof.to_json()), self.box.commit)
