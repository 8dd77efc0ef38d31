"""Chouette's timeouts and absences (PL-7 as RULES.md words it), with exact amounts.

- a captain who times out on his turn is treated as dropping his cube: he pays its
  current value × S (never a level multiple) and is replaced as in CH-7;
- a bettor (or the captain) who does not answer the banker's double drops it (BG-12:
  the value before the double);
- a banker who times out while answering crew doubles drops every cube he has not
  answered, and the game goes on where a member is left;
- a banker who times out on his own turn loses to every member still in at the level
  the position would have if the crew bore off now (BF-15 counting; Jacoby is off in
  chouette, CH-3, so a gammon counts with the cube in the middle).

A property test then lets anyone time out at random moments of random games: no
money or checker is ever made or lost.

Seats (chouette_tables.py): Ann 0, Ben 1 (the banker), Cid 2, Dora 3. Money in S.
"""

from __future__ import annotations

import random

import pytest
from chouette_tables import ANN, BEN, CID, DORA, paid, started
from dice_sources import SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.games.race import Side
from sheshbesh.games.race.notation import parse_play
from sheshbesh.games.race.position import CHECKERS
from sheshbesh.play import actions as act
from sheshbesh.play.chouette import (
    Action,
    Answer,
    Board,
    ChouetteGame,
    Double,
    Lineup,
    Phase,
    Timeout,
    draw_order,
    replay,
)
from sheshbesh.play.cube import Cube
from sheshbesh.play.errors import IllegalAction
from sheshbesh.play.race import Phase as BoardPhase

CREW_LOSES_A_BACKGAMMON = "B:W1x2:B3x15"
"""Black (the crew) to roll, nothing borne off, all fifteen in White's home: a forfeit
at the level would be a backgammon (3)."""


# --- the captain on his turn ----------------------------------------------------------


def test_pl7_a_captain_out_of_time_pays_his_cube_not_level_times_cube():
    table = started(crew_first=False)  # the crew's turn
    table.set_cube(ANN, Cube(2, Side.BLACK))  # Ann took a banker's double earlier
    table.set_board(CREW_LOSES_A_BACKGAMMON)
    board = table.game.board
    events = table.do(Timeout(ANN))
    assert events[1]["paid"] == [[ANN, -2], [BEN, 2]]  # 2 × S, not 3 × 2 × S
    assert [e["type"] for e in events] == ["timeout", "forfeited", "captain_replaced"]
    game = table.game
    assert paid(game) == {BEN: 2, ANN: -2, DORA: 0, CID: 0}
    assert ANN in game.out and game.crew_in == (DORA, CID)
    # CH-7: the next member still in captains; the former captain goes to the end.
    assert game.lineup == Lineup(BEN, (DORA, CID, ANN)) and game.waiting_for() == (DORA,)
    assert game.board == board and not game.finished


def test_pl7_a_captain_out_of_time_mid_play_hands_over_the_dice_and_steps():
    table = started(crew_first=False)
    table.dice.rolls.append((6, 5))
    table.do(Board(ANN, act.Roll(Side.BLACK)))
    table.do(Board(ANN, act.Move(Side.BLACK, 24, 18, 6)))
    turn = table.game.board.turn
    table.do(Timeout(ANN))
    game = table.game
    assert paid(game) == {BEN: 1, ANN: -1, DORA: 0, CID: 0}
    assert game.captain == DORA and game.board.turn == turn
    assert Board(DORA, act.Undo(Side.BLACK)) in game.legal_actions(DORA)


def test_pl7_the_new_captain_keeps_the_crews_open_window_and_the_calls_in_it():
    """The captain timed out before acting, so the window (CH-7) is still open: a
    bettor's call stands and the new captain may double or roll, as Ann could."""
    table = started(crew_first=False)
    table.do(Double(CID))
    table.do(Timeout(ANN))
    game = table.game
    assert game.captain == DORA and game.window_open and game.called == (CID,)
    assert game.doublable(DORA) == (DORA,)
    table.dice.rolls.append((6, 5))
    table.do(Board(DORA, act.Roll(Side.BLACK)))  # closes the window: Cid's cube goes first
    assert table.game.phase is Phase.BANKER_ANSWERS and table.game.pending == (CID,)
    table.do(Answer(BEN, take=True, cube=CID))
    assert table.game.board.phase is BoardPhase.MOVE  # Dora rolled on
    assert table.game.cube_of(CID) == Cube(2, Side.WHITE)


def test_pl7_the_last_member_in_timing_out_ends_the_game_and_the_banker_won():
    table = started()
    table.do(Double(BEN))
    for seat, take in ((ANN, True), (DORA, False), (CID, False)):
        table.do(Answer(seat, take))
    table.set_board(CREW_LOSES_A_BACKGAMMON)
    table.do(Timeout(ANN))
    game = table.game
    assert game.finished and game.winner == "banker" and game.reason == "CH-8"
    assert paid(game) == {BEN: 4, ANN: -2, DORA: -1, CID: -1}
    assert game.next_lineup == Lineup(BEN, (DORA, CID, ANN))  # CH-9: the banker stays


# --- a member who does not answer the banker's double ---------------------------------


def test_pl7_a_bettor_who_does_not_answer_drops_at_the_value_before_the_double():
    table = started()  # the banker's turn
    table.set_cube(CID, Cube(2, Side.WHITE))  # Ben took Cid's double earlier
    table.set_board("W:W6x5,8x3,13x5,7x2:B24")
    table.do(Double(BEN, (DORA, CID)))  # Cid's cube 2 → 4, Dora's 1 → 2
    table.do(Answer(DORA, take=True))
    events = table.do(Timeout(CID))
    assert events[1] == {"type": "cube_dropped", "cube": CID, "paid": [[CID, -2], [BEN, 2]],
                         "seq": events[1]["seq"]}  # fmt: skip
    game = table.game
    assert paid(game) == {BEN: 2, CID: -2, ANN: 0, DORA: 0}
    assert game.crew_in == (ANN, DORA) and game.captain == ANN
    assert game.cube_of(DORA) == Cube(2, Side.BLACK)
    assert game.phase is Phase.BOARD and game.legal_actions(BEN) == [
        Board(BEN, act.Roll(Side.WHITE))
    ]


def test_pl7_a_captain_who_does_not_answer_drops_and_the_first_taker_captains():
    table = started()
    table.do(Double(BEN))
    table.do(Answer(CID, take=False))
    table.do(Answer(DORA, take=True))
    table.do(Timeout(ANN))
    game = table.game
    assert paid(game) == {BEN: 2, ANN: -1, CID: -1, DORA: 0}
    assert game.lineup == Lineup(BEN, (DORA, CID, ANN))  # CH-6
    assert game.crew_in == (DORA,) and game.cube_of(DORA) == Cube(2, Side.BLACK)


def test_pl7_only_a_member_the_game_waits_for_can_time_out():
    table = started()
    table.do(Double(BEN, (DORA,)))
    table.refused(Timeout(CID), IllegalAction, "nothing waits on seat 2")
    table.refused(Timeout(BEN), IllegalAction, "nothing waits on seat 1")


# --- the banker answering crew doubles -------------------------------------------------


def test_pl7_a_banker_silent_on_crew_doubles_drops_those_he_has_not_answered():
    table = started(crew_first=False)
    table.set_cube(ANN, Cube(2, Side.BLACK))
    table.set_board("B:W6x5,8x3,13x5,7x2:B24x2,19x13")
    table.do(Double(CID))
    table.do(Double(DORA))
    table.do(Double(ANN))  # Ann 2 → 4, Dora and Cid 1 → 2
    table.do(Answer(BEN, take=True, cube=DORA))
    events = table.do(Timeout(BEN))
    assert [e["type"] for e in events] == ["timeout", "cube_dropped", "cube_dropped",
                                           "answers_in"]  # fmt: skip
    game = table.game
    assert paid(game) == {BEN: -3, ANN: 2, CID: 1, DORA: 0}
    assert game.cube_of(DORA) == Cube(2, Side.WHITE) and game.crew_in == (DORA,)
    # CH-7: the captain was dropped, the next member still in captains and rolls.
    assert game.lineup == Lineup(BEN, (DORA, CID, ANN)) and game.waiting_for() == (DORA,)
    assert game.legal_actions(DORA) == [Board(DORA, act.Roll(Side.BLACK))]


def test_pl7_a_banker_silent_after_the_captain_rolled_lets_the_captain_roll_on():
    table = started(crew_first=False)
    table.dice.rolls.append((6, 5))
    table.do(Double(CID))
    table.do(Board(ANN, act.Roll(Side.BLACK)))
    events = table.do(Timeout(BEN))
    assert [e["type"] for e in events][:3] == ["timeout", "cube_dropped", "answers_in"]
    assert events[-1]["e"]["dice"] == [6, 5]
    assert paid(table.game) == {BEN: -1, CID: 1, ANN: 0, DORA: 0}
    assert table.game.captain == ANN and table.game.board.phase is BoardPhase.MOVE


def test_pl7_a_banker_silent_on_every_cube_still_in_ends_the_game_and_the_crew_won():
    table = started(crew_first=False)
    for seat in (DORA, CID, ANN):
        table.do(Double(seat))
    table.do(Timeout(BEN))
    game = table.game
    assert game.finished and game.winner == "crew" and game.reason == "CH-8"
    assert paid(game) == {BEN: -3, ANN: 1, DORA: 1, CID: 1}
    assert game.next_lineup == Lineup(ANN, (DORA, CID, BEN))  # CH-9: the captain banks


# --- the banker on his own turn -------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "level"),
    [
        ("W:W6x5,8x3,13x5,7:B24", 1),  # White has borne one off: single
        ("W:W6x5,8x3,13x5,7x2:B24", 2),  # none off, none in Black's home: gammon
        ("W:W24,6x4,8x3,13x5,7x2:B23", 3),  # a straggler in Black's home: backgammon
    ],
)
def test_pl7_a_banker_out_of_time_on_his_turn_pays_each_member_in_level_times_cube(board, level):
    """BF-15 counting; CH-3: no Jacoby in chouette, so Dora's centred cube pays a gammon."""
    table = started()
    table.do(Double(BEN, (ANN, CID)))
    table.do(Answer(ANN, take=True))  # Ann's cube 2, hers
    table.do(Answer(CID, take=False))  # Cid pays 1 and is out
    table.set_board(board)
    events = table.do(Timeout(BEN))
    assert events[-1]["paid"] == [[ANN, 2 * level], [BEN, -2 * level], [DORA, level],
                                  [BEN, -level]]  # fmt: skip
    game = table.game
    assert game.finished and game.winner == "crew" and game.reason == "PL-7"
    assert paid(game) == {BEN: 1 - 3 * level, ANN: 2 * level, DORA: level, CID: -1}
    assert game.next_lineup == Lineup(ANN, (DORA, CID, BEN))  # CH-9: the captain banks


def test_pl7_a_banker_out_of_time_after_rolling_forfeits_the_same_way():
    table = started()
    table.dice.rolls.append((6, 5))
    table.do(Board(BEN, act.Roll(Side.WHITE)))
    table.do(Timeout(BEN))
    game = table.game
    # White's back checkers still stand in Black's home: a backgammon (BG-8), 3 × 1 each.
    assert game.reason == "PL-7" and paid(game) == {BEN: -9, ANN: 3, DORA: 3, CID: 3}


# --- random play with random timeouts ----------------------------------------------------


def random_action(game: ChouetteGame, rng: random.Random, timeouts: float) -> Action:
    """A seat the game waits for times out, or acts from its menu: now and then a
    double (a bettor may call one), an answer that is mostly a take, else a move."""
    waiting = game.waiting_for()
    answering = game.phase is not Phase.BOARD  # few moments, so time out more often there
    if rng.random() < timeouts * (10 if answering else 1):
        return Timeout(rng.choice(waiting))
    callers = [s for s in game.crew_in if s != game.captain and game.doublable(s)]
    if callers and rng.random() < 0.1:
        return Double(rng.choice(callers))
    seat = rng.choice(waiting)
    may = game.doublable(seat)
    if may and rng.random() < 0.1:
        return Double(seat, tuple(rng.sample(may, rng.randint(1, len(may)))))
    menu = game.legal_actions(seat)
    answers = [a for a in menu if isinstance(a, Answer)]
    if answers:
        cube = rng.choice(answers).cube
        return Answer(seat, rng.random() < 0.75, cube)
    return rng.choice(
        [a for a in menu if isinstance(a, Board) and not isinstance(a.action, act.Undo)]
    )


def borne_off_by_plays(events: list[dict]) -> dict[Side, int]:
    """Checkers each side bore off, counted from the plays' notation alone."""
    off = dict.fromkeys(Side, 0)
    for event in events:
        if event["type"] == "board" and event["e"]["type"] == "played":
            side = Side.from_letter(event["e"]["side"])
            paths = parse_play(event["e"]["play"])
            off[side] += sum(path.count for path in paths if path.points[-1] == 0)
    return off


@settings(max_examples=30)
@given(seed=st.integers(0, 10**6), seats=st.integers(3, 8),
       timeouts=st.sampled_from([0.002, 0.01, 0.05]))  # fmt: skip
def test_pl7_random_play_with_random_timeouts_neither_makes_nor_loses_money_or_checkers(
    seed, seats, timeouts
):
    """Whoever times out whenever (PL-7): every step's payments sum to zero, none
    takes more from a player than CH-10 holds for him, each side keeps its fifteen
    checkers (those on the board and the bar plus those its plays bore off), and the
    log replays to the live game."""
    rng = random.Random(seed)
    lineup = draw_order(list(range(seats)), lambda n: [rng.randint(1, 6) for _ in range(n)])
    game, created = ChouetteGame.create(lineup)
    dice = SeededDice(seed)
    game, events = (step := game.apply(act.Start(), dice)).game, list(step.events)
    while not game.finished:
        assert len(events) < 5000, "a game that never ends"
        step = game.apply(random_action(game, rng, timeouts), dice)
        paid_now = dict.fromkeys((game.banker, *game.lineup.rotation), 0)
        for event in step.events:
            for seat, amount in event.get("paid", ()):
                paid_now[seat] += amount
        assert sum(paid_now.values()) == 0
        for seat, amount in paid_now.items():
            assert -amount <= game.exposure(seat), (seat, amount, game.exposure(seat))
        game, events = step.game, events + list(step.events)
        position, off = game.board.position, borne_off_by_plays(events)
        for side in Side:
            assert position.on_board(side) + position.bar[side] + off[side] == CHECKERS
            assert position.borne_off(side) == off[side]
    assert sum(amount for _, amount in game.payout()) == 0
    assert replay(created, events) == game
