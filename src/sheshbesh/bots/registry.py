"""Bots by name: ``"engine:level"`` → a :class:`~sheshbesh.bots.base.Bot`.

The server stores a bot account's engine as this string and asks :func:`decide`
in a worker process (search is CPU-bound and must not stall the event loop),
so everything here is importable and picklable without the server.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from sheshbesh.games.race import Side
from sheshbesh.play import chouette_session, draughts, match, race

from .base import (
    Bot,
    BotAction,
    CannotPlay,
    GameState,
    RaceBot,
    RandomDraughtsBot,
    RandomRaceBot,
)

log = logging.getLogger(__name__)

Factory = Callable[[str, "int | None"], Bot]


def _random(level: str, seed: int | None) -> Bot:
    if level == "draughts":
        return RandomDraughtsBot(seed=seed)
    return RandomRaceBot(seed=seed)


ENGINES: dict[str, Factory] = {"random": _random}
"""Engine name → factory(level, seed); engines register themselves below when importable."""


def _register_optional() -> None:
    """Engines with heavy imports (gnubg) load on first use, so the rules stay light."""
    try:
        from .gnubg_bot import GnubgBot

        ENGINES["gnubg"] = lambda level, seed: GnubgBot(level, seed=seed)
    except Exception as error:  # a missing or broken engine must not stop the club
        log.warning("bot engine unavailable: %s", error)
    try:
        from .pubeval import PubevalBot

        ENGINES["pubeval"] = lambda level, seed: PubevalBot(seed=seed)
    except Exception as error:
        log.warning("bot engine unavailable: %s", error)
    try:
        from .expectimax import ExpectimaxBot

        ENGINES["expectimax"] = lambda level, seed: ExpectimaxBot(level, seed=seed)
    except Exception as error:  # a missing or broken engine must not stop the club
        log.warning("bot engine unavailable: %s", error)
    try:
        from .nets.bot import NetBot

        ENGINES["net"] = lambda level, seed: NetBot(level, seed=seed)
    except Exception as error:  # a missing or broken engine must not stop the club
        log.warning("bot engine unavailable: %s", error)
    try:
        from .draughts_search import AlphaBetaBot

        ENGINES["alphabeta"] = lambda level, seed: AlphaBetaBot(level, seed=seed)
    except Exception as error:  # a missing or broken engine must not stop the club
        log.warning("bot engine unavailable: %s", error)
    try:
        import dame  # noqa: F401  # the compiled engine must load, not only our wrapper

        from .draughts_engine import DameBot

        ENGINES["dame"] = lambda level, seed: DameBot(level, seed=seed)
    except Exception as error:  # a missing or broken engine must not stop the club
        log.warning("bot engine unavailable: %s", error)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """The bot ``spec`` names (``"gnubg:expert"``); :class:`CannotPlay` for an unknown one."""
    engine, _, level = spec.partition(":")
    if engine not in ENGINES:
        _register_optional()
    factory = ENGINES.get(engine)
    if factory is None:
        raise CannotPlay(f"no bot engine {engine!r}")
    try:
        return factory(level, seed)
    except (KeyError, ValueError) as error:
        raise CannotPlay(f"{spec}: {error}") from None


@lru_cache(maxsize=64)
def _cached(spec: str) -> Bot:
    return make_bot(spec)


def decide(spec: str, state: GameState, side: Side, budget: float | None, seed: int) -> BotAction:
    """One decision, as the server's worker process makes it (bots are reused, reseeded)."""
    bot = _cached(spec)
    rng = getattr(bot, "rng", None)
    if rng is not None:
        rng.seed(seed)
    return bot.choose(state, side, budget=budget)


# --- the server's worker processes ----------------------------------------------------

Event = dict[str, Any]
FOLDS: dict[str, tuple[Callable[[Event], Any], Callable[[Any, Event], Any]]] = {
    "race": (race.from_created, race.evolve),
    "match": (match.from_match_created, match.evolve_match),
    "draughts": (draughts.from_created, draughts.evolve),
    "chouette": (chouette_session.from_session_created, chouette_session.evolve_session),
}
"""How each kind of stored game folds its log (the play layer's own functions)."""

_games: OrderedDict[str, tuple[int, GameState]] = OrderedDict()
"""A worker's recent games at their last seen event, so a decision folds only what is new."""


def decide_from_log(
    spec: str,
    game_id: str,
    kind: str,
    log: list[Event],
    side: Side,
    budget: float | None,
    seed: int,
) -> BotAction:
    """:func:`decide` for a stored game: fold ``log`` (event 0 is ``created``), then choose.

    Game states hold lazily built move lists that do not pickle; the log does,
    and each worker keeps the states it folded, so a game costs one event per turn.
    """
    return decide(spec, state_from_log(game_id, kind, log), side, budget, seed)


def decide_seat_from_log(
    spec: str, game_id: str, log: list[Event], seat: int, budget: float | None, seed: int
) -> Any:
    """A chouette seat's decision (``bots.chouette``): the table's log folded to its session,
    then the seat's action in the game being played (None: a bettor lets the window pass)."""
    from .chouette import ChouetteSeat

    session: Any = state_from_log(game_id, "chouette", log)
    if session.game is None:
        raise CannotPlay("no game is being played at the table")
    bot = _cached(spec)
    if not isinstance(bot, RaceBot):
        raise CannotPlay(f"{spec} does not play backgammon, chouette's board")
    rng = getattr(bot, "rng", None)
    if rng is not None:
        rng.seed(seed)
    return ChouetteSeat(bot).choose(session.game, seat, budget=budget)


def state_from_log(game_id: str, kind: str, log: list[Event]) -> GameState:
    start, step = FOLDS[kind]
    cached = _games.pop(game_id, None)
    if cached is not None and cached[0] < len(log) and log[cached[0]].get("seq") == cached[0]:
        seen, state = cached
        for event in log[seen + 1 :]:
            state = step(state, event)
    else:
        state = start(log[0])
        for event in log[1:]:
            state = step(state, event)
    _games[game_id] = (len(log) - 1, state)
    while len(_games) > 256:
        _games.popitem(last=False)
    return state


def analyse_log(log: list[Event], plies: int) -> dict[str, Any]:
    """A finished game's analysis as JSON (run in a worker: it takes seconds).

    Draughts is reviewed by dame-rs, the five games gnubg does not play by their
    trained nets, backgammon, short nardy and takhte nard by gnubg.
    """
    if log[0].get("variant") == "draughts":
        from .draughts_review import analyse_draughts

        return analyse_draughts(log[0], log[1:], plies=plies).to_json()
    from .nets.review import REVIEWED, analyse_race_net

    if log[0].get("variant") in REVIEWED:
        return analyse_race_net(log[0], log[1:], plies=plies).to_json()
    from .analysis import analyse_events

    return analyse_events(log[0], log[1:], plies=plies).to_json()
