"""Chouette (CH-1 … CH-10) through its state machine: the worked examples CH-E1 … CH-E5
by hand, every refusal, and random whole games checked for invariants. Timeouts and
absences (PL-7) are in test_chouette_forfeits.py.

Seats in the examples (chouette_tables.py): Ann 0, Ben 1, Cid 2, Dora 3. Money is
counted in stakes S.
"""

from __future__ import annotations

import random

import pytest
from chouette_tables import ANN, BEN, CH_E1, CID, DORA, Table, bear_off, paid, started
from dice_sources import SeededDice
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.games.race import Side
from sheshbesh.play import actions as act
from sheshbesh.play.chouette import (
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
from sheshbesh.play.errors import IllegalAction, InvalidOptions, NotYourTurn
from sheshbesh.play.race import Phase as BoardPhase
from sheshbesh.play.result import END_RULES

# --- CH-1, CH-2: who sits where -------------------------------------------------------


def test_ch_e1_the_order_roll_rerolls_only_the_tied():
    rolls = iter([(5, 6, 2, 5), (3, 1)])
    assert draw_order([ANN, BEN, CID, DORA], lambda n: next(rolls)) == CH_E1


def test_ch2_a_three_way_tie_rolls_again_among_the_three_then_a_pair_again():
    rolls = iter([(4, 4, 4, 1, 2), (6, 6, 2), (1, 5)])
    lineup = draw_order([0, 1, 2, 3, 4], lambda n: next(rolls))
    assert lineup == Lineup(1, (0, 2, 4, 3))  # 1 beat 0 on the second re-roll


@pytest.mark.parametrize("seats", [[0, 1], list(range(9)), [0, 1, 1]])
def test_ch1_three_to_eight_distinct_participants(seats):
    with pytest.raises(InvalidOptions, match="3-8"):
        draw_order(seats, lambda n: [1] * n)
    with pytest.raises(InvalidOptions, match="3-8"):
        ChouetteGame.create(Lineup(seats[0], tuple(seats[1:])))


def test_ch1_the_banker_plays_white_and_the_captain_black_with_a_cube_each():
    game = Table().game
    assert (game.side_of(BEN), game.side_of(ANN), game.side_of(DORA)) == (
        Side.WHITE,
        Side.BLACK,
        None,
    )
    assert dict(game.cubes) == {ANN: Cube(), CID: Cube(), DORA: Cube()}
    assert not game.board.options.cube  # CH-3: the board's own cube is not used


# --- CH-5, CH-6: the banker doubles ------------------------------------------------------


def test_ch_e2_banker_doubles_all_ann_and_cid_drop_dora_takes_and_captains():
    table = started()
    assert table.game.doublable(BEN) == (ANN, DORA, CID)
    table.do(Double(BEN))
    assert table.game.phase is Phase.CREW_ANSWERS and set(table.game.waiting_for()) == {
        ANN,
        DORA,
        CID,
    }
    table.do(Answer(ANN, take=False))
    table.do(Answer(DORA, take=True))
    table.do(Answer(CID, take=False))
    game = table.game
    assert game.lineup == Lineup(BEN, (DORA, CID, ANN))
    assert game.captain == DORA and game.cube_of(DORA) == Cube(2, Side.BLACK)
    assert paid(game) == {BEN: 2, ANN: -1, CID: -1, DORA: 0}
    assert game.crew_in == (DORA,) and game.phase is Phase.BOARD
    assert game.legal_actions(BEN) == [Board(BEN, act.Roll(Side.WHITE))]  # the window passed


def test_ch_e3_dora_wins_a_gammon_and_banks_next():
    table = started()
    table.do(Double(BEN))
    for seat, take in ((ANN, False), (DORA, True), (CID, False)):
        table.do(Answer(seat, take))
    # Dora (Black) bears off her last checker; Ben has all fifteen home-less: a gammon.
    table.set_board("B:W6x5,8x3,13x5,7x2:B24")
    table.dice.rolls.append((6, 5))
    events = table.do_set(Board(DORA, act.Roll(Side.BLACK))) + bear_off(table, DORA)
    finished = events[-1]
    assert finished["type"] == "finished" and finished["winner"] == "crew"
    assert finished["paid"] == [[DORA, 4], [BEN, -4]]  # 2 (gammon) × 2 (cube)
    assert paid(table.game) == {BEN: -2, ANN: -1, CID: -1, DORA: 4}
    assert table.game.next_lineup == Lineup(DORA, (CID, ANN, BEN))


def test_ch_e4_ben_wins_a_single_game_with_no_cube_action():
    table = started()
    table.set_board("W:W1:B24x5,23x5,22x4")  # Black has borne one off: a single game
    table.dice.rolls.append((2, 1))
    table.do_set(Board(BEN, act.Roll(Side.WHITE)))
    bear_off(table, BEN)
    assert table.game.winner == "banker" and table.game.reason == "BF-13"
    assert paid(table.game) == {BEN: 3, ANN: -1, DORA: -1, CID: -1}
    assert table.game.next_lineup == Lineup(BEN, (DORA, CID, ANN))


def test_ch5_the_banker_may_double_some_cubes_and_not_those_the_crew_owns():
    table = started()
    table.do(Double(BEN, (DORA,)))
    assert table.game.waiting_for() == (DORA,)
    table.do(Answer(DORA, take=True))
    assert table.game.cube_of(DORA) == Cube(2, Side.BLACK)
    table.dice.rolls.append((6, 5))
    table.do(Board(BEN, act.Roll(Side.WHITE)))
    assert table.game.crew_in == (ANN, DORA, CID)


def test_ch6_a_captain_who_drops_with_no_taker_hands_over_to_the_next_member_still_in():
    table = started()
    table.do(Double(BEN, (ANN, CID)))
    table.do(Answer(CID, take=True))
    table.do(Answer(ANN, take=False))
    # CH-6: Cid took, so Cid (not Dora, who was not doubled) leads; Ann goes to the end.
    assert table.game.lineup.rotation == (CID, DORA, ANN)
    table2 = started()
    table2.do(Double(BEN, (ANN,)))
    table2.do(Answer(ANN, take=False))
    assert table2.game.lineup.rotation == (DORA, CID, ANN)


def test_ch6_when_every_member_drops_the_game_ends_and_the_banker_stays():
    table = started()
    table.do(Double(BEN))
    for seat in (CID, ANN, DORA):
        table.do(Answer(seat, take=False))
    game = table.game
    assert game.finished and game.reason == "CH-8" and game.winner == "banker"
    assert paid(game) == {BEN: 3, ANN: -1, DORA: -1, CID: -1}
    assert game.next_lineup == Lineup(BEN, (DORA, CID, ANN))
    assert "CH-8" in END_RULES


# --- CH-7: the crew doubles -------------------------------------------------------------


def test_ch_e5_ann_and_dora_double_ben_takes_anns_cube_and_drops_doras():
    table = started(crew_first=False)  # Ben opened; now the crew's turn
    assert table.game.board.position.turn is Side.BLACK
    table.do(Double(DORA))
    assert table.game.phase is Phase.BOARD  # a bettor's call waits for the captain
    table.do(Double(ANN))
    assert table.game.phase is Phase.BANKER_ANSWERS and table.game.pending == (ANN, DORA)
    table.do(Answer(BEN, take=True, cube=ANN))
    table.do(Answer(BEN, take=False, cube=DORA))
    game = table.game
    assert game.cube_of(ANN) == Cube(2, Side.WHITE) and game.cube_of(CID) == Cube()
    assert game.crew_in == (ANN, CID) and paid(game)[DORA] == 1 and paid(game)[BEN] == -1
    assert game.legal_actions(ANN) == [Board(ANN, act.Roll(Side.BLACK))]
    assert game.doublable(CID) == ()  # the window passed with Ann's double


def test_ch7_the_captains_roll_closes_the_window_and_rolls_once_the_banker_answered():
    table = started(crew_first=False)
    table.dice.rolls.append((6, 5))
    table.do(Double(CID))
    table.do(Board(ANN, act.Roll(Side.BLACK)))
    assert table.game.phase is Phase.BANKER_ANSWERS and table.game.pending == (CID,)
    events = table.do(Answer(BEN, take=True, cube=CID))
    assert [e["type"] for e in events][-2:] == ["rolling_on", "board"]
    assert events[-1]["e"]["dice"] == [6, 5] and table.game.board.phase is BoardPhase.MOVE
    assert table.game.cube_of(CID) == Cube(2, Side.WHITE)


def test_ch7_a_dropped_captain_hands_the_board_to_the_next_member_still_in():
    table = started(crew_first=False)
    table.do(Double(ANN))
    table.do(Answer(BEN, take=False, cube=ANN))
    assert table.game.lineup.rotation == (DORA, CID, ANN) and paid(table.game)[ANN] == 1
    assert table.game.waiting_for() == (DORA,)
    assert table.game.legal_actions(DORA) == [Board(DORA, act.Roll(Side.BLACK))]


def test_ch7_the_banker_dropping_every_cube_ends_the_game_and_the_captain_banks():
    table = started(crew_first=False)
    for seat in (DORA, CID, ANN):
        table.do(Double(seat))
    for seat in (ANN, DORA, CID):
        table.do(Answer(BEN, take=False, cube=seat))
    game = table.game
    assert game.finished and game.winner == "crew" and game.reason == "CH-8"
    assert paid(game) == {BEN: -3, ANN: 1, DORA: 1, CID: 1}
    assert game.next_lineup == Lineup(ANN, (DORA, CID, BEN))


# --- refusals: a clear error and nothing changes ----------------------------------------


def test_refusals_on_the_banker_s_turn():
    table = started()
    table.refused(Board(ANN, act.Roll(Side.BLACK)), NotYourTurn)  # the captain, out of turn
    table.refused(Board(DORA, act.Roll(Side.BLACK)), NotYourTurn)  # a bettor never moves
    table.refused(Double(DORA), IllegalAction, "may not double")  # the banker's window
    table.refused(Double(BEN, (ANN, ANN)), IllegalAction, "only the cubes")
    table.refused(Double(BEN, (7,)), IllegalAction, "only the cubes")
    table.refused(Answer(ANN, take=True), IllegalAction, "no double")
    table.refused(act.Resign(Side.WHITE, 1), IllegalAction, "not a chouette action")  # CH-10
    table.refused(act.Start(), IllegalAction, "already started")
    table.refused(Timeout(ANN), IllegalAction, "nothing waits")
    table.do(Double(BEN, (DORA,)))
    table.refused(Board(BEN, act.Roll(Side.WHITE)), NotYourTurn, "answered first")
    table.refused(Answer(ANN, take=True), NotYourTurn, "no double to answer")
    table.refused(Answer(DORA, take=True, cube=CID), NotYourTurn)
    table.refused(Answer(BEN, take=True, cube=DORA), NotYourTurn)
    table.do(Answer(DORA, take=True))
    table.refused(Double(BEN), IllegalAction, "may not double")  # once per turn


def test_refusals_on_the_crew_s_turn():
    table = started(crew_first=False)
    table.do(Double(CID))
    table.refused(Double(CID), IllegalAction, "may not double")  # called already
    table.refused(Double(DORA, (ANN,)), IllegalAction, "own cube")
    table.refused(Double(BEN), IllegalAction, "may not double")
    table.refused(Answer(BEN, take=True, cube=CID), IllegalAction, "no double")
    table.do(Double(ANN))
    table.refused(Answer(BEN, take=True, cube=DORA), IllegalAction, "doubled cubes")
    table.refused(Answer(ANN, take=True), NotYourTurn, "banker answers")


RESIGNING, CUBE, TIMEOUT, OTHER = (
    r"no resignation in chouette \(CH-10\)",
    r"each member's own cube \(CH-3\)",
    r"the server's Timeout of a seat \(PL-7\)",
    "not a move on the board",
)
NOT_ON_THE_BOARD = [
    pytest.param(lambda side: act.Resign(side, 1), RESIGNING, id="resign-single"),
    pytest.param(lambda side: act.Resign(side, 3), RESIGNING, id="resign-backgammon"),
    pytest.param(act.AcceptResign, RESIGNING, id="accept-resign"),
    pytest.param(act.DeclineResign, RESIGNING, id="decline-resign"),
    pytest.param(act.Double, CUBE, id="double"),
    pytest.param(act.Take, CUBE, id="take"),
    pytest.param(act.Drop, CUBE, id="drop"),
    pytest.param(act.Beaver, CUBE, id="beaver"),
    pytest.param(act.Timeout, TIMEOUT, id="timeout"),
    pytest.param(lambda side: act.Start(), OTHER, id="start"),
    pytest.param(lambda side: Double(BEN), OTHER, id="chouette-double"),
    pytest.param(lambda side: Board(BEN, act.Roll(side)), OTHER, id="board-in-board"),
    pytest.param(lambda side: "13/7", OTHER, id="text"),
]


@pytest.mark.parametrize(("make", "words"), NOT_ON_THE_BOARD)
@pytest.mark.parametrize("moment", ["banker before rolling", "captain after rolling"])
def test_ch10_gen3_the_board_takes_only_moves_whoever_sends_the_rest(make, words, moment):
    """GEN-3: the board wrapper passes on only rolls and plays. Resigning (CH-10),
    the board's own cube (CH-3) and a timeout (PL-7: the server's, with its own
    rules) are refused for the mover and anyone else, and nothing changes."""
    if moment == "banker before rolling":
        table, mover, side = started(), BEN, Side.WHITE
    else:
        table = started(crew_first=False)
        table.dice.rolls.append((6, 5))
        table.do(Board(ANN, act.Roll(Side.BLACK)))
        mover, side = ANN, Side.BLACK
    for seat in (mover, DORA):
        table.refused(Board(seat, make(side)), IllegalAction, words)


def test_nothing_is_accepted_before_the_opening_or_after_the_end():
    table = Table(dice=[(1, 3)])
    table.refused(Board(ANN, act.Roll(Side.BLACK)), IllegalAction, "not started")
    assert table.game.legal_actions(BEN) == [act.Start()]
    table = started()
    table.do(Double(BEN))
    for seat in (ANN, DORA, CID):
        table.do(Answer(seat, take=False))
    table.refused(Double(BEN), IllegalAction, "over")
    assert table.game.legal_actions(BEN) == []


# --- CH-10 escrow --------------------------------------------------------------------


def test_ch10_each_member_holds_three_cubes_and_the_banker_their_sum():
    table = started()
    assert [table.game.exposure(s) for s in (ANN, BEN, CID, DORA)] == [3, 9, 3, 3]
    table.do(Double(BEN))
    for seat, take in ((ANN, True), (DORA, False), (CID, True)):
        table.do(Answer(seat, take))
    assert [table.game.exposure(s) for s in (ANN, BEN, CID, DORA)] == [6, 12, 6, 0]


# --- random whole games ----------------------------------------------------------------


def pick(game: ChouetteGame, rng: random.Random) -> object:
    """A waiting seat's action: mostly play on; now and then double, drop or time out."""
    seat = rng.choice(game.waiting_for() or (game.banker,))
    menu = game.legal_actions(seat)
    callers = [s for s in game.crew_in if s != game.captain and game.doublable(s)]
    if callers and rng.random() < 0.1:
        return Double(rng.choice(callers))
    if rng.random() < 0.002:
        return Timeout(seat)
    doubles = [a for a in menu if isinstance(a, Double)]
    if doubles and rng.random() < 0.15:
        if seat == game.banker:
            may = game.doublable(seat)
            return Double(seat, tuple(rng.sample(may, rng.randint(1, len(may)))))
        return doubles[0]
    answers = [a for a in menu if isinstance(a, Answer)]
    if answers:
        return rng.choice(answers)
    board = [a for a in menu if isinstance(a, Board) and not isinstance(a.action, act.Undo)]
    return rng.choice(board or menu)


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), seats=st.integers(3, 8))
def test_random_games_end_balanced_and_replay_to_the_live_game(seed, seats):
    rng = random.Random(seed)
    lineup = draw_order(list(range(seats)), lambda n: [rng.randint(1, 6) for _ in range(n)])
    game, created = ChouetteGame.create(lineup)
    dice = SeededDice(seed)
    events: list[dict] = []
    for _ in range(3000):
        if game.finished:
            break
        action = pick(game, rng) if game.board.phase is not BoardPhase.OPENING else act.Start()
        step = game.apply(action, dice)  # type: ignore[arg-type]
        game, events = step.game, events + list(step.events)
        assert sum(amount for _, amount in game.payout()) == 0
        if game.phase is Phase.BOARD:  # captaincy passes once every answer is in
            assert game.captain in game.crew_in
            assert sorted(game.lineup.rotation) == sorted(lineup.rotation)
    assert game.finished
    assert replay(created, events) == game
    assert game.next_lineup is not None
    assert sorted((game.next_lineup.banker, *game.next_lineup.rotation)) == list(range(seats))
    if game.board.finished:  # CH-8: level × cube for each member still in at the end
        result = game.board.result
        assert result is not None
        sign = 1 if result.winner is Side.BLACK else -1
        last = events[-1]["paid"]
        assert last == [
            x
            for member in game.crew_in
            for x in ([member, sign * result.level * game.cube_of(member).value],
                      [game.banker, -sign * result.level * game.cube_of(member).value])
        ]  # fmt: skip
