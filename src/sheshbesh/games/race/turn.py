"""A turn entered one step at a time (BF-10): each step must begin a kept sequence.

The server accepts a step only if some sequence that BF-9 keeps starts with the
steps entered so far plus this one; steps can be undone until the player
confirms, and confirming is possible only when the steps form a complete kept
sequence. :class:`Turn` answers those questions for any variant, using the same
step rules as the move generator.

>>> from sheshbesh.games.race import Position
>>> turn = Turn.begin(Position.start("backgammon"), (3, 1))
>>> sorted({(s.src, s.dst) for s in turn.legal_steps()})
[(6, 3), (6, 5), (8, 5), (8, 7), (13, 10), (24, 21), (24, 23)]
>>> turn = turn.step(8, 5).step(6, 5)
>>> turn.complete, turn.play().notation()
(True, '8/5 6/5')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import IllegalPlay
from .movegen import State, Successors, from_search, strip_mask, successors_for, to_search
from .moves import Play, RawStep, Step
from .position import Position


@dataclass(frozen=True, slots=True)
class Turn:
    """The steps entered so far in one turn, and what may follow them."""

    position: Position
    dice: tuple[int, int]
    plays: tuple[Play, ...]
    steps: tuple[Step, ...] = ()
    _trail: tuple[tuple[State, tuple[int, ...]], ...] = field(default=(), repr=False)
    _guide: _Guide | None = field(default=None, repr=False, compare=False)

    @classmethod
    def begin(cls, position: Position, dice: tuple[int, int], *, last_roll: bool = False) -> Turn:
        """Start a turn with ``dice`` rolled; raises as ``legal_plays`` does for bad input."""
        plays = position.legal_plays(dice, last_roll=last_roll)
        guide = _Guide(position, dice, plays)
        start = to_search(position)
        return cls(position, dice, plays, (), ((start, guide.all_dice),), guide)

    @property
    def used(self) -> int:
        """How many dice every kept sequence uses (0: the dice cannot be played)."""
        return len(self.plays[0].steps) if self.plays else 0

    @property
    def complete(self) -> bool:
        """Whether the steps so far form a complete kept sequence (confirm allowed)."""
        return len(self.steps) == self.used

    def board(self) -> Position:
        """The checkers as they stand after the steps entered so far (for display).

        >>> from sheshbesh.games.race import Position
        >>> Turn.begin(Position.start("backgammon"), (3, 1)).step(8, 5).board().text()
        'W:W5,6x5,8x2,13x5,24x2:B1x2,12x5,17x3,19x5'
        """
        state = self._trail[-1][0]
        return from_search(self.position, state, (self.position.turn, self.position.owed))

    def legal_steps(self) -> tuple[Step, ...]:
        """Every step that may come next (empty when complete or nothing is playable)."""
        assert self._guide is not None
        state, remaining = self._trail[-1]
        return tuple(
            Step(*raw) for raw, _, _ in self._guide.next_steps(state, remaining, len(self.steps))
        )

    def step(self, src: int, dst: int, die: int | None = None) -> Turn:
        """Enter one step from own point ``src`` to ``dst`` (25 bar, 0 off).

        ``die`` picks the die when a bear-off could use either; otherwise it is
        read off the distance.
        """
        assert self._guide is not None
        state, remaining = self._trail[-1]
        options = self._guide.next_steps(state, remaining, len(self.steps))
        chosen = [
            (raw, nxt, rest)
            for raw, nxt, rest in options
            if raw[0] == src and raw[1] == dst and (die is None or raw[2] == die)
        ]
        if not chosen:
            legal = ", ".join(_label(raw) for raw, _, _ in options) or "none"
            raise IllegalPlay(
                f"step {src}/{'off' if dst == 0 else dst} is not legal now; legal steps: {legal}"
            )
        raw, nxt, rest = min(chosen, key=lambda option: option[0][2])
        return Turn(
            self.position,
            self.dice,
            self.plays,
            (*self.steps, Step(*raw)),
            (*self._trail, (nxt, rest)),
            self._guide,
        )

    def play_text(self, text: str) -> Play:
        """The legal play ``text`` names for this roll (a whole play in one action)."""
        from .notation import resolve

        return resolve(self.position, self.dice, text, self.plays)

    def undo(self) -> Turn:
        """Take back the last step (BF-10)."""
        if not self.steps:
            raise IllegalPlay("there is no step to undo")
        return Turn(
            self.position, self.dice, self.plays, self.steps[:-1], self._trail[:-1], self._guide
        )

    def play(self) -> Play:
        """The legal play the entered steps make; only when :attr:`complete`."""
        if not self.plays:
            d1, d2 = self.dice
            raise IllegalPlay(f"nothing can move with {d1}-{d2}: the turn passes")
        if not self.complete:
            raise IllegalPlay(
                f"the play is not complete: {len(self.steps)} of {self.used} dice played"
            )
        assert self._guide is not None
        return self._guide.play_for(self._trail[-1][0])


def _label(raw: RawStep) -> str:
    src, dst = raw[0], raw[1]
    return f"{'bar' if src == 25 else src}/{'off' if dst == 0 else dst}"


class _Guide:
    """Shared, memoised knowledge of one roll: which partial sequences can be completed."""

    def __init__(self, position: Position, dice: tuple[int, int], plays: tuple[Play, ...]):
        d1, d2 = dice
        self.used = len(plays[0].steps) if plays else 0
        self.all_dice = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
        self.successors: Successors = successors_for(position, to_search(position), d1, d2)
        self.finals = {play.key: play for play in plays}
        self.single_die: int | None = None
        if self.used == 1 and d1 != d2:
            self.single_die = plays[0].steps[0].die
        self.memo: dict[tuple[State, tuple[int, ...]], bool] = {}

    def next_steps(
        self, state: State, remaining: tuple[int, ...], depth: int
    ) -> list[tuple[RawStep, State, tuple[int, ...]]]:
        if depth >= self.used:
            return []
        options = []
        for die in sorted(set(remaining), reverse=True):
            if self.single_die is not None and die != self.single_die:
                continue
            rest = list(remaining)
            rest.remove(die)
            rest_dice = tuple(rest)
            for nxt, raw in self.successors(state, die):
                if self._finishes(nxt, rest_dice, depth + 1):
                    options.append((raw, nxt, rest_dice))
        return options

    def _finishes(self, state: State, remaining: tuple[int, ...], depth: int) -> bool:
        """Whether ``state`` at ``depth`` steps can still end in a kept play."""
        if depth == self.used:
            return strip_mask(state) in self.finals
        key = (state, remaining)
        if key not in self.memo:
            self.memo[key] = any(
                self._finishes(nxt, _without(remaining, die), depth + 1)
                for die in set(remaining)
                for nxt, _ in self.successors(state, die)
            )
        return self.memo[key]

    def play_for(self, state: State) -> Play:
        return self.finals[strip_mask(state)]


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    rest = list(dice)
    rest.remove(die)
    return tuple(rest)
