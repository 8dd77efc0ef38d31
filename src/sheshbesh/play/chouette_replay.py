"""Which action made an event of a chouette session: a log replayed through the rules.

Folding a session's log (:func:`~.chouette_session.replay_session`) trusts what
it reads: a payment, a lineup or a captaincy is taken as written. To *check* a
record, each event that someone's action made is turned back into that action
(:func:`action_for`) and handed to :meth:`ChouetteSession.apply` with the
record's own dice (:class:`RecordedDice`); what the rules then emit, the
automatic events included (answers in, a forfeit's payment, the settlement, the
next lineup), must be what the record says. The JSON check
(:mod:`.chouette_record`) and the text import (``text_record.chouette_import``)
both work this way; an event given here needs only the fields its action reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheshbesh.games.race import Side

from . import actions as act
from .chouette import CREW, Answer, Board, Double, Phase, Timeout
from .chouette_session import (
    ChouetteSession,
    Close,
    Join,
    Leave,
    PassBank,
    RollOrder,
    SessionAction,
)
from .errors import IllegalAction

Event = dict[str, Any]
AUTOMATIC = ("lineup_drawn", "answers_in", "captain_replaced", "rolling_on",
             "forfeited", "finished")  # fmt: skip
"""Events nobody asks for: the rules make them after an action (the lineup after the
order roll, the settlement after the board's last play…)."""


class NoAction(IllegalAction):
    """An event no action makes at this point of the session."""


def action_for(event: Event, session: ChouetteSession) -> SessionAction:
    """The action that makes ``event`` first in ``session`` as it stands (between two
    actions); :class:`NoAction` for an event the rules make by themselves."""
    kind = event.get("type")
    seat: Any = event.get("seat")  # checked by the rules: a wrong seat is refused
    if kind == "seated":
        return Join(seat)
    if kind == "left":
        return Leave(seat)
    if kind == "bank_passed":
        return PassBank(seat)
    if kind == "closed":
        return Close()
    if kind == "order_rolled":
        return RollOrder()  # before the first game, ahead of a bank passed (CH-2, PL-5)
    if kind == "game_started":
        return act.Start()
    game = session.game
    if kind in AUTOMATIC or kind == "chouette_created" or game is None:
        raise NoAction(f"a {_name(event)} event follows from no action here")
    if kind == "board":
        return _board_action(event.get("e") or {}, session)
    if kind == "banker_doubled":
        return Double(game.banker, tuple(event.get("cubes") or ()))
    if kind == "double_called":
        return Double(seat)
    if kind == "crew_doubled" and event.get("roll_after"):
        return Board(game.captain, act.Roll(CREW))  # the captain rolled: the calls go first
    if kind in ("cube_taken", "cube_dropped"):
        take, cube = kind == "cube_taken", event.get("cube")
        if game.phase is Phase.BANKER_ANSWERS:
            return Answer(game.banker, take, cube)
        return Answer(cube, take)  # type: ignore[arg-type]
    if kind == "timeout":
        return Timeout(seat)
    raise NoAction(f"a {_name(event)} event follows from no action here")


def _board_action(inner: Event, session: ChouetteSession) -> SessionAction:
    game = session.game
    assert game is not None
    kind = inner.get("type")
    side = Side.from_letter(inner["side"]) if inner.get("side") in ("W", "B") else None
    if side is None or kind not in ("rolled", "played", "step", "undo"):
        raise NoAction(f"a board {kind!r} event follows from no action here")
    seat = game.banker if side is not CREW else game.captain
    move: act.Roll | act.Move | act.Undo | act.Confirm | act.PlayText
    if kind == "rolled":
        move = act.Roll(side)
    elif kind == "step":
        move = act.Move(side, inner["src"], inner["dst"], inner.get("die"))
    elif kind == "undo":
        move = act.Undo(side)
    elif game.board.turn is not None and game.board.turn.steps:
        move = act.Confirm(side)  # the steps entered make the play
    else:
        move = act.PlayText(side, inner.get("play", ""))
    return Board(seat, move)


def _name(event: Event) -> str:
    kind = event.get("type")
    if kind == "board" and isinstance(event.get("e"), dict):
        return f"board {event['e'].get('type')!r}"
    return repr(kind)


class RecordedDice:
    """Hands the rules the dice of a record's rolls, in the order the record has them,
    with each roll's proof and next commitment, so the events come out as recorded."""

    def __init__(self, rolls: Sequence[act.Rolled]):
        self.rolls = list(rolls)
        self.used = 0

    def roll(self, nonce: str | None, count: int) -> act.Rolled:
        if self.used >= len(self.rolls):
            raise IllegalAction("the rules roll here, and the record has no roll left")
        rolled = self.rolls[self.used]
        self.used += 1
        if len(rolled.dice) != count:
            raise IllegalAction(
                f"the rules roll {count} dice here, the record has {len(rolled.dice)}"
            )
        return rolled


def rolled_of(event: Event) -> act.Rolled | None:
    """The roll an event of a session's log carries (the order roll's, the board's)."""
    if event.get("type") == "board" and isinstance(event.get("e"), dict):
        event = event["e"]
    dice = event.get("dice")
    if not isinstance(dice, list):
        return None
    return act.Rolled(tuple(dice), event.get("proof"), event.get("next_commit"))


__all__ = ["AUTOMATIC", "NoAction", "RecordedDice", "action_for", "rolled_of"]
