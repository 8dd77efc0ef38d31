"""Play-bans for players who abandon games, as a schedule and two pure questions.

An *offence* is a game lost by timing out while absent (PL-7): the player's flag
fell, or his grace ran out, while none of his sockets was open. A player who
loses on time at the board has not abandoned anything. Deciding which losses
count is the server's job. This module only counts them and answers two
questions: is the player banned now (:func:`current_ban`), and what would one
more offence now bring (:func:`next_ban_if_offence`, for the warning text).
Times are seconds since the epoch, passed in, like every ``now`` in the server.

**The schedule** (:data:`SCHEDULE`) is indexed by the offence's number: how many
offences, itself included, fall in the :data:`WINDOW` of seven days up to it.

====== ======== ============================================================
number ban      why
====== ======== ============================================================
1      warning  one lost connection or power cut must not cost a ban
2      15 min   long enough to notice, short enough to forgive
3      1 h      the pattern is now a habit
4      3 h
5      12 h
6      1 day
7+     3 days   the cap: more is a moderator's decision, not a formula's
====== ======== ============================================================

Each step is two to four times the last, escalating as lichess's bans do.
Offences **age out**: after seven days an offence no longer counts, so a player
who abandons once a week is only ever warned, and one bad evening is forgotten
a week later. A ban starts at its offence and does not add to a ban still
running. While several bans overlap, the one that ends last is current.
Offences dated after ``now`` are not counted yet. Two offences with the same
time both count, and each gets the higher number.

>>> current_ban([0.0], now=60.0) is None            # the first offence: a warning
True
>>> ban = current_ban([0.0, HOUR], now=HOUR + 60.0)  # the second: 15 minutes
>>> ban.offence, ban.until - ban.started
(2, 900.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MINUTE = 60.0
HOUR = 60 * MINUTE
DAY = 24 * HOUR
WINDOW = 7 * DAY
"""How long an offence counts towards the number of later ones."""
SCHEDULE: tuple[float, ...] = (0.0, 15 * MINUTE, HOUR, 3 * HOUR, 12 * HOUR, DAY, 3 * DAY)
"""Ban length in seconds for offence number 1, 2, …; 0 is a warning; the last entry is the cap."""
ABANDON = "abandon"


@dataclass(frozen=True, slots=True)
class PlayBan:
    """No new game requests from ``started`` until ``until``, for offence number ``offence``.

    ``reason`` is a code the client translates ("you let games time out while
    away"); ``abandon`` is the only one so far.
    """

    started: float
    until: float
    offence: int
    reason: str = ABANDON

    @property
    def seconds(self) -> float:
        return self.until - self.started

    def remaining(self, now: float) -> float:
        """Seconds left at ``now`` (0 once over)."""
        return max(0.0, self.until - now)


def offence_number(offences: Iterable[float], at: float) -> int:
    """How many offences fall in the window ending at ``at``, one at ``at`` included."""
    return sum(1 for t in offences if at - WINDOW < t <= at)


def ban_length(number: int) -> float:
    """Seconds of ban for offence ``number`` (1-based): 0 is a warning."""
    if number < 1:
        return 0.0
    return SCHEDULE[min(number, len(SCHEDULE)) - 1]


def current_ban(offences: Iterable[float], now: float) -> PlayBan | None:
    """The ban in force at ``now``, or None (never banned, only warned, or the ban is over)."""
    past = sorted(t for t in offences if t <= now)
    current: PlayBan | None = None
    for at in past:
        ban = _ban_at(past, at)
        if ban is not None and ban.until > now and (current is None or ban.until >= current.until):
            current = ban
    return current


def next_ban_if_offence(offences: Iterable[float], now: float) -> PlayBan | None:
    """The ban one more offence at ``now`` would bring; None if it would be only a warning."""
    past = [t for t in offences if t <= now]
    return _ban_at([*past, now], now)


def _ban_at(offences: list[float], at: float) -> PlayBan | None:
    number = offence_number(offences, at)
    length = ban_length(number)
    return PlayBan(at, at + length, number) if length > 0 else None
