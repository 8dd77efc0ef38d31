"""Computer players: one interface (:class:`~sheshbesh.bots.base.Bot`), many engines."""

from .base import (
    Bot,
    BotAction,
    BotError,
    CannotPlay,
    GameOver,
    GameState,
    MatchContext,
    RaceBot,
    RandomDraughtsBot,
    RandomRaceBot,
)

__all__ = [
    "Bot",
    "BotAction",
    "BotError",
    "CannotPlay",
    "GameOver",
    "GameState",
    "MatchContext",
    "RaceBot",
    "RandomDraughtsBot",
    "RandomRaceBot",
]
