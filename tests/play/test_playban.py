"""Play-bans for abandoned games (PL-7): escalation, the cap, overlap and ageing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheshbesh.play.playban import (
    DAY,
    HOUR,
    MINUTE,
    SCHEDULE,
    WINDOW,
    PlayBan,
    ban_length,
    current_ban,
    next_ban_if_offence,
    offence_number,
)


def test_pl7_first_abandon_is_only_a_warning() -> None:
    assert current_ban([0.0], now=0.0) is None
    assert offence_number([0.0], at=0.0) == 1
    assert next_ban_if_offence([0.0], now=HOUR) == PlayBan(HOUR, HOUR + 15 * MINUTE, 2)


def test_pl7_bans_escalate_with_each_offence_in_the_window() -> None:
    offences: list[float] = []
    lengths = []
    for n in range(9):
        at = n * 4 * HOUR  # nine offences within 36 hours
        offences.append(at)
        ban = current_ban(offences, now=at)
        lengths.append(0.0 if ban is None else ban.seconds)
        if ban is not None:
            assert (ban.offence, ban.started, ban.reason) == (n + 1, at, "abandon")
    assert lengths == [0.0, 15 * MINUTE, HOUR, 3 * HOUR, 12 * HOUR, DAY, 3 * DAY, 3 * DAY, 3 * DAY]


def test_pl7_ban_ends_exactly_at_until() -> None:
    offences = [0.0, 10.0]
    ban = current_ban(offences, now=10.0)
    assert ban is not None and ban.until == 10.0 + 15 * MINUTE
    assert current_ban(offences, now=ban.until - 1) == ban
    assert ban.remaining(ban.until - 1) == 1.0
    assert current_ban(offences, now=ban.until) is None
    assert ban.remaining(ban.until + 5) == 0.0


def test_pl7_offences_age_out_after_the_window() -> None:
    # two offences a week and a minute apart: the first no longer counts
    assert current_ban([0.0, WINDOW + MINUTE], now=WINDOW + 2 * MINUTE) is None
    assert offence_number([0.0, WINDOW], at=WINDOW) == 1
    assert offence_number([0.0, WINDOW - 1], at=WINDOW - 1) == 2
    # one abandon a week is only ever warned
    weekly = [week * (WINDOW + HOUR) for week in range(10)]
    assert all(current_ban(weekly, now=t) is None for t in weekly)


def test_pl7_a_later_shorter_ban_does_not_cut_a_running_one() -> None:
    """Offences 1–5 at hours 0–4, offences 6 and 7 late on day 6: a 3-day ban.
    A new offence on day 7½ counts only 3 in its window (the hours-0–4 ones aged
    out), so it alone would bring 1 hour; the 3-day ban stays current."""
    first = [h * HOUR for h in range(5)]
    late = [6.9 * DAY, 6.9 * DAY + HOUR]
    seven = current_ban([*first, *late], now=late[1])
    assert seven is not None and seven.offence == 7 and seven.until == late[1] + 3 * DAY
    now = 7.5 * DAY
    assert next_ban_if_offence([*first, *late], now) == PlayBan(now, now + HOUR, 3)
    assert current_ban([*first, *late, now], now) == seven


def test_pl7_offences_after_now_do_not_count_yet() -> None:
    assert current_ban([0.0, HOUR], now=HOUR - 1) is None
    assert next_ban_if_offence([HOUR], now=0.0) is None


def test_schedule_is_a_warning_then_growing_and_capped() -> None:
    assert SCHEDULE[0] == 0.0
    assert all(a < b for a, b in itertools.pairwise(SCHEDULE))
    assert ban_length(0) == 0.0
    assert ban_length(len(SCHEDULE) + 10) == SCHEDULE[-1]


times = st.lists(st.floats(min_value=0, max_value=30 * DAY), max_size=15)


@given(times, st.floats(min_value=0, max_value=40 * DAY))
def test_current_ban_is_in_force_and_the_latest_ending(offences: list[float], now: float) -> None:
    ban = current_ban(offences, now)
    if ban is None:
        return
    assert ban.started <= now < ban.until
    assert ban.started in offences
    assert ban.seconds == pytest.approx(ban_length(ban.offence))


@given(times, st.floats(min_value=0, max_value=40 * DAY))
def test_one_more_offence_never_shortens_a_ban(offences: list[float], now: float) -> None:
    before = current_ban(offences, now)
    after = current_ban([*offences, now], now)
    if before is None:
        assert after == next_ban_if_offence(offences, now)
    else:
        assert after is not None and after.until >= before.until
