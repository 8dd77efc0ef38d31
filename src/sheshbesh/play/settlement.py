"""What the wallet pays at the end of a game, for any number of participants.

A game's ``payout`` says, per participant, how many stakes S he receives
(negative: pays). Two-player games key it by colour; chouette (CH-8) will key it
by seat, one entry per crew member and one for the banker. The wallet only ever
sees the :class:`Settlement` built here: participant ids mapped to whole stakes,
summing to zero, so money is never created or lost (DESIGN principle 4).

>>> from sheshbesh.games.race import Side
>>> settle(((Side.WHITE, 2), (Side.BLACK, -2)), {Side.WHITE: "ann", Side.BLACK: "bob"})
Settlement(amounts=(('ann', 2), ('bob', -2)))
>>> settle((("ben", 3), ("ann", -1), ("dora", -1), ("cid", -1)))  # CH-E4
Settlement(amounts=(('ben', 3), ('ann', -1), ('dora', -1), ('cid', -1)))
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from .errors import PlayError


class UnbalancedPayout(PlayError):
    """A payout that does not sum to zero or names a participant twice or not at all."""


@dataclass(frozen=True, slots=True)
class Settlement:
    """Stakes per participant id, in the order given; always sums to zero."""

    amounts: tuple[tuple[str, int], ...]

    def of(self, participant: str) -> int:
        return dict(self.amounts).get(participant, 0)


def settle(
    payout: Iterable[tuple[Hashable, int]], who: Mapping[Hashable, str] | None = None
) -> Settlement:
    """Map a game's payout onto participant ids (``who``: key → id; default: keys are ids)."""
    amounts: dict[str, int] = {}
    for key, amount in payout:
        participant = who[key] if who is not None and key in who else key
        if not isinstance(participant, str):
            raise UnbalancedPayout(f"no participant for {key!r}")
        if participant in amounts:
            raise UnbalancedPayout(f"{participant!r} appears twice in the payout")
        amounts[participant] = amount
    if sum(amounts.values()) != 0:
        raise UnbalancedPayout(f"payout {amounts} does not sum to zero")
    return Settlement(tuple(amounts.items()))
