"""The payout side for two or more participants (PL-4, CH-8)."""

from __future__ import annotations

import pytest

from sheshbesh.games.race import Side
from sheshbesh.play.settlement import UnbalancedPayout, settle


def test_two_players_by_colour() -> None:
    settlement = settle(((Side.WHITE, -4), (Side.BLACK, 4)), {Side.WHITE: "ann", Side.BLACK: "bob"})
    assert settlement.of("ann") == -4 and settlement.of("bob") == 4


def test_ch_e3_four_participants_settle_to_zero() -> None:
    """CH-E3: Dora wins a gammon on cube 2 against banker Ben: Ben pays 4 to Dora;
    Ann and Cid dropped earlier (settled then), so this game's payout is Ben -4, Dora +4."""
    settlement = settle((("ben", -4), ("dora", 4), ("ann", 0), ("cid", 0)))
    assert sum(amount for _, amount in settlement.amounts) == 0
    assert settlement.of("dora") == 4


@pytest.mark.parametrize(
    ("payout", "message"),
    [
        ((("a", 1), ("b", 0)), "does not sum to zero"),
        ((("a", 1), ("a", -1)), "twice"),
        (((Side.WHITE, 1), (Side.BLACK, -1)), "no participant"),
    ],
)
def test_unbalanced_payouts_are_refused(payout: tuple, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(UnbalancedPayout, match=message):
        settle(payout)
