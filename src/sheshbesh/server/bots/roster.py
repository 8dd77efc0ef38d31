"""The club's bots: who they are, what engine plays for each, and which requests each takes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheshbesh.store.models import Request as GameRequest

GAMMON_FAMILY = ("backgammon", "short_nardy", "takhte_nard")
OWN_ENGINE = ("long_nardy", "caucasian_nardy", "plakoto", "russian_backgammon", "jacquet")
TRAINED_NETS = OWN_ENGINE
"""Where the trained net beats expectimax's medium level (docs/training/README.md): every
game of our own engine, Caucasian nardy and Russian backgammon since their later runs."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One bot of the roster: its name, engine and which requests it takes."""

    username: str
    engine: str
    variants: tuple[str, ...]
    max_stake: int = 1000
    about: str = ""

    def policy(self) -> dict[str, Any]:
        return {"variants": list(self.variants), "max_stake": self.max_stake, "about": self.about}

    def takes(self, request: GameRequest) -> bool:
        return request.variant in self.variants and request.stake <= self.max_stake


ROSTER: tuple[BotSpec, ...] = (
    BotSpec("GnuBG_Beginner", "gnubg:beginner", GAMMON_FAMILY, 1000,
            "GNU Backgammon playing like a beginner: quick, with noise"),
    BotSpec("GnuBG_Intermediate", "gnubg:intermediate", GAMMON_FAMILY, 1000,
            "GNU Backgammon at 0-ply with a little noise"),
    BotSpec("GnuBG_Expert", "gnubg:expert", GAMMON_FAMILY, 1000,
            "GNU Backgammon at 0-ply, no noise"),
    BotSpec("GnuBG_WorldClass", "gnubg:world_class", GAMMON_FAMILY, 1000,
            "GNU Backgammon at 2-ply with cubeful match play"),
    BotSpec("Nardist_Easy", "expectimax:easy", OWN_ENGINE, 1000,
            "Our bot for nardy, Plakoto, Russian backgammon and Jacquet: greedy"),
    BotSpec("Nardist_Hard", "expectimax:hard", OWN_ENGINE, 1000,
            "Our bot for nardy, Plakoto, Russian backgammon and Jacquet: looks a roll ahead"),
    BotSpec("Nardist_Net", "net:hard", TRAINED_NETS, 1000,
            "A net trained by self-play for long nardy, Plakoto and Jacquet"),
    BotSpec("Nardist_Net_Expert", "net:expert", TRAINED_NETS, 1000,
            "The self-trained net looking a roll ahead"),
    BotSpec("Draughts_Easy", "alphabeta:easy", ("draughts",), 1000,
            "Alpha-beta search, shallow and a little random"),
    BotSpec("Draughts_Expert", "alphabeta:expert", ("draughts",), 1000,
            "Alpha-beta search with iterative deepening"),
    BotSpec("Draughts_Master", "dame:master", ("draughts",), 1000,
            "The dame-rs engine, a second a move; our rules check every move"),
)  # fmt: skip
"""Ordered by preference: for a public request the first bot that takes it accepts."""
