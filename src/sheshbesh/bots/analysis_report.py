"""What a post-game analysis says: one entry per decision, a summary per player.

Backgammon's is filled by gnubg (:mod:`.analysis`), draughts' by dame-rs
(:mod:`.draughts_review`) in the same shape, with its own :class:`Scale`.

Equities are gnubg's *normalised* equities for the player deciding: per unit
of the cube in money play, gnubg's match equity (EMG) in a match. Labels use
gnubg's default thresholds, so a player who knows gnubg reads them the same:

* a decision that loses ≥ 0.040 is *doubtful*, ≥ 0.080 *bad*, ≥ 0.160 *very
  bad* (a blunder);
* a roll worth ≥ +0.6 more than the average roll is *very lucky*, ≥ +0.3
  *lucky*, ≤ −0.3 *unlucky*, ≤ −0.6 *very unlucky*;
* the error rate is milli-equity lost per decision (gnubg's mEMG per move),
  counting unforced plays and cube decisions that were made or were close;
  its rating steps are gnubg's (0.002, 0.005, 0.008, 0.012, 0.018, 0.026 and
  0.035 per decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .gnubg_eval import CubeEquities

Kind = Literal["play", "cube", "response"]

SKILL_STEPS = ((0.160, "very bad"), (0.080, "bad"), (0.040, "doubtful"))
LUCK_STEPS = ((0.6, "very lucky"), (0.3, "lucky"), (-0.3, "none"), (-0.6, "unlucky"))
RATING_STEPS = (
    (0.002, "supernatural"),
    (0.005, "world class"),
    (0.008, "expert"),
    (0.012, "advanced"),
    (0.018, "intermediate"),
    (0.026, "casual player"),
    (0.035, "beginner"),
)
LUCK_RATING_STEPS = ((0.08, "very lucky"), (0.04, "lucky"), (-0.04, "average"), (-0.08, "unlucky"))
CLOSE_CUBE = 0.16
"""A cube decision counts in the error rate when made, or when doubling is within this of right."""

Steps = tuple[tuple[float, str], ...]


@dataclass(frozen=True, slots=True)
class Scale:
    """How a game's equity losses are labelled: per decision, and per player's average."""

    skill: Steps
    rating: Steps


GNUBG_SCALE = Scale(SKILL_STEPS, RATING_STEPS)
DRAUGHTS_SCALE = Scale(
    skill=((0.30, "very bad"), (0.16, "bad"), (0.08, "doubtful")),
    rating=tuple((2 * step, label) for step, label in RATING_STEPS),
)
"""Draughts "equity" is the engine's score as an expected result (:mod:`.draughts_review`):
near level a blunder loses about a man, an error half a man, a doubtful move a quarter.
The rating steps are gnubg's doubled, a first guess that no draughts data calibrated yet."""


def skill(loss: float, steps: Steps = SKILL_STEPS) -> str:
    """The label for a loss of ``loss`` (gnubg's steps by default); ``"none"`` below doubtful."""
    for step, label in steps:
        if loss >= step:
            return label
    return "none"


def luck_label(luck: float) -> str:
    for step, label in LUCK_STEPS:
        if luck >= step:
            return label
    return "very unlucky"


def rating(error_per_decision: float, steps: Steps = RATING_STEPS) -> str:
    for step, label in steps:
        if error_per_decision < step:
            return label
    return "awful"


def luck_rating(luck_per_roll: float) -> str:
    for step, label in LUCK_RATING_STEPS:
        if luck_per_roll > step:
            return label
    return "very unlucky"


@dataclass(frozen=True, slots=True)
class Entry:
    """One decision: a roll and its play (``play``), a cube action, or the answer to a double.

    ``action`` is what was done (a play in notation, ``"cannot move"``,
    ``"double"``, ``"no double"``, ``"take"``, ``"drop"``, ``"beaver"``) and
    ``best`` what gnubg prefers; ``equity_lost`` is never negative.
    """

    kind: Kind
    game: int
    side: str
    position: str
    position_id: str
    cube: int
    action: str
    best: str
    equity: float
    best_equity: float
    dice: tuple[int, int] | None = None
    forced: bool = False
    luck: float | None = None
    cube_equities: CubeEquities | None = None
    counted: bool = True
    """Whether the decision counts in the error rate (unforced plays, real cube decisions)."""
    seq: int | None = None
    """The sequence number of the event that made the decision (a review links to the replay)."""
    cube_owner: str | None = None
    """Who owned the cube then ("W", "B"; None: in the middle), to draw the position."""
    scale: Scale = GNUBG_SCALE
    """How its loss is labelled (gnubg's steps; draughts has its own)."""

    @property
    def equity_lost(self) -> float:
        return max(0.0, self.best_equity - self.equity)

    @property
    def skill(self) -> str:
        return skill(self.equity_lost, self.scale.skill)

    @property
    def luck_label(self) -> str | None:
        return None if self.luck is None else luck_label(self.luck)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "game": self.game,
            "side": self.side,
            "position": self.position,
            "position_id": self.position_id,
            "cube": self.cube,
            "cube_owner": self.cube_owner,
            "seq": self.seq,
            "dice": list(self.dice) if self.dice else None,
            "action": self.action,
            "best": self.best,
            "equity": round(self.equity, 4),
            "best_equity": round(self.best_equity, 4),
            "equity_lost": round(self.equity_lost, 4),
            "skill": self.skill,
            "forced": self.forced,
            "luck": None if self.luck is None else round(self.luck, 4),
            "luck_label": self.luck_label,
        }
        if self.cube_equities is not None:
            data["cube_equities"] = self.cube_equities.to_json()
        return data


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's totals over the game (or match)."""

    side: str
    decisions: int = 0
    """Unforced plays plus counted cube decisions."""
    plays: int = 0
    cube_decisions: int = 0
    error: float = 0.0
    doubtful: int = 0
    bad: int = 0
    blunders: int = 0
    rolls: int = 0
    luck: float = 0.0
    scale: Scale = GNUBG_SCALE

    @classmethod
    def of(cls, side: str, entries: list[Entry], scale: Scale = GNUBG_SCALE) -> PlayerSummary:
        own = [entry for entry in entries if entry.side == side]
        counted = [entry for entry in own if entry.counted]
        skills = [entry.skill for entry in counted]
        lucks = [entry.luck for entry in own if entry.luck is not None]
        return cls(
            side=side,
            decisions=len(counted),
            plays=sum(1 for entry in counted if entry.kind == "play"),
            cube_decisions=sum(1 for entry in counted if entry.kind != "play"),
            error=sum(entry.equity_lost for entry in counted),
            doubtful=skills.count("doubtful"),
            bad=skills.count("bad"),
            blunders=skills.count("very bad"),
            rolls=len(lucks),
            luck=sum(lucks),
            scale=scale,
        )

    @property
    def error_rate(self) -> float:
        """Milli-equity lost per decision (gnubg's mEMG per move)."""
        return 1000 * self.error / self.decisions if self.decisions else 0.0

    @property
    def rating(self) -> str:
        return rating(self.error / self.decisions, self.scale.rating) if self.decisions else "none"

    @property
    def luck_rating(self) -> str:
        return luck_rating(self.luck / self.rolls) if self.rolls else "average"

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "decisions": self.decisions,
            "plays": self.plays,
            "cube_decisions": self.cube_decisions,
            "error": round(self.error, 4),
            "error_rate": round(self.error_rate, 1),
            "doubtful": self.doubtful,
            "bad": self.bad,
            "blunders": self.blunders,
            "rating": self.rating,
            "rolls": self.rolls,
            "luck": round(self.luck, 4),
            "luck_rating": self.luck_rating,
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The analysis of one game or match: every decision, and each player's totals."""

    variant: str
    plies: int
    match_length: int
    entries: tuple[Entry, ...]
    players: tuple[PlayerSummary, PlayerSummary] = field(init=False)

    def __post_init__(self) -> None:
        entries = list(self.entries)
        scale = DRAUGHTS_SCALE if self.variant == "draughts" else GNUBG_SCALE
        players = (PlayerSummary.of("W", entries, scale), PlayerSummary.of("B", entries, scale))
        object.__setattr__(self, "players", players)

    def player(self, side: str) -> PlayerSummary:
        return self.players[0] if side == "W" else self.players[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "plies": self.plies,
            "match_length": self.match_length,
            "entries": [entry.to_json() for entry in self.entries],
            "players": {summary.side: summary.to_json() for summary in self.players},
        }
