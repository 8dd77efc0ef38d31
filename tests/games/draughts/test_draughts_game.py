"""How a game ends: DR-13 (no move), DR-14…DR-18 draws, DR-19 offers, DR-21 adjudication.

Each draw rule is shown by playing a game into it, one ply short and then on the ply.
"""

import random

import pytest

from sheshbesh.games.draughts import (
    Color,
    Endgame,
    Game,
    GameOver,
    Move,
    Outcome,
    Position,
    Termination,
    adjudicate,
)


def begin(fen: str) -> Game:
    return Game.begin(Position.from_fen(fen))


def gives_capture(game: Game, move: Move) -> bool:
    return any(m.is_capture for m in game.position.apply(move).legal_moves())


def quiet_king_moves(game: Game) -> list[Move]:
    """King moves that capture nothing and offer the opponent no capture, fresh
    positions first."""
    moves = [
        m
        for m in game.legal_moves()
        if not m.is_capture
        and m.start in game.position.kings(game.turn)
        and not gives_capture(game, m)
    ]
    return sorted(moves, key=lambda m: game.reversible.count(game.position.apply(m)))


def shuffle(game: Game, plies: int) -> Game:
    """Play ``plies`` quiet king moves (searching, with backtracking, for a line
    that never repeats a position three times) so only the rule under test can
    end the game."""

    def search(line: Game, left: int) -> Game | None:
        if left == 0:
            return line
        if line.outcome() is not None:
            return None
        for move in quiet_king_moves(line):
            found = search(line.play(move), left - 1)
            if found is not None:
                return found
        return None

    found = search(game, plies)
    assert found is not None, f"no line of {plies} quiet king moves from {game.position.fen()}"
    return found


def draw(termination: Termination) -> Outcome:
    return Outcome(None, termination)


# DR-13


def test_dr_13_side_without_pieces_loses() -> None:
    game = begin("W:W32:B28").play("32x23")
    assert game.outcome() == Outcome(Color.WHITE, Termination.NO_LEGAL_MOVE)
    assert game.legal_moves() == ()


def test_dr_13_side_that_is_blocked_loses() -> None:
    game = begin("W:W45:B40,34")
    assert game.position.legal_moves() == ()
    outcome = game.outcome()
    assert outcome == Outcome(Color.BLACK, Termination.NO_LEGAL_MOVE)
    assert outcome is not None and outcome.result == "0-2"
    assert outcome.reason == "DR-13 no legal move"


def test_dr_13_no_move_after_the_end() -> None:
    game = begin("W:W32:B28").play("32x23")
    with pytest.raises(GameOver, match="DR-13"):
        game.play("23-18")


# DR-14


def test_dr_14_threefold_repetition() -> None:
    game = begin("W:WK47,45:BK4,6")
    line = ["47-41", "4-9", "41-47", "9-4"] * 2
    for move in line[:-1]:
        game = game.play(move)
        assert game.outcome() is None
    game = game.play(line[-1])
    assert game.outcome() == draw(Termination.REPETITION)
    assert game.outcome() is not None and "DR-14" in game.outcome().reason  # type: ignore[union-attr]


def test_dr_14_repetition_need_not_be_in_a_row() -> None:
    game = begin("W:WK47,45:BK4,6")
    line = ["47-41", "4-9", "41-47", "9-4", "47-36", "4-10", "36-47", "10-4"]
    for move in line[:-1]:
        game = game.play(move)
        assert game.outcome() is None
    assert game.play(line[-1]).outcome() == draw(Termination.REPETITION)


def test_dr_14_same_placement_other_side_to_move_is_not_a_repetition() -> None:
    a = Position.from_fen("W:WK47,45:BK4,6")
    b = Position.from_fen("B:WK47,45:BK4,6")
    assert a != b


def test_dr_14_man_move_clears_the_history() -> None:
    game = begin("W:WK47,45:BK4,6").play("47-41").play("4-9").play("41-47").play("9-4")
    game = game.play("45-40")
    assert game.reversible == (game.position,)


# DR-15 and DR-E9 (b)


def test_dr_15_twenty_five_king_moves_each() -> None:
    game = shuffle(begin("W:WK47,45,40:BK4,6,11"), 49)
    assert game.outcome() is None and game.king_moves == 49
    game = shuffle(game, 1)
    assert game.outcome() == draw(Termination.TWENTY_FIVE_MOVES)


def test_dr_e9_b_man_move_resets_the_king_move_count() -> None:
    game = shuffle(begin("W:WK47,45,40:BK4,6,11"), 40)
    assert game.turn is Color.WHITE
    game = game.play("40-34")
    assert game.king_moves == 0
    game = shuffle(game, 49)
    assert game.outcome() is None
    assert shuffle(game, 1).outcome() == draw(Termination.TWENTY_FIVE_MOVES)


def test_dr_15_capture_resets_the_king_move_count() -> None:
    game = shuffle(begin("W:WK47,45,40:BK4,6,11"), 30)
    assert game.king_moves == 30
    offer = next(
        m
        for m in game.legal_moves()
        if m.start in game.position.kings(game.turn) and gives_capture(game, m)
    )
    game = game.play(offer)
    assert game.king_moves == 31
    game = game.play(game.legal_moves()[0])
    assert game.moves[-1].is_capture and game.king_moves == 0


# DR-16 and DR-E9 (a)


def test_dr_e9_a_sixteen_moves_with_three_kings_against_one() -> None:
    game = begin("W:WK1,K2,K3:BK50")
    assert game.endgame is Endgame.SIXTEEN_MOVES
    game = shuffle(game, 31)
    assert game.outcome() is None
    game = shuffle(game, 1)
    assert game.outcome() == draw(Termination.SIXTEEN_MOVES)


def test_dr_16_promotion_does_not_restart_the_count() -> None:
    game = begin("W:WK46,7,8:BK50")
    assert game.endgame is Endgame.SIXTEEN_MOVES
    game = shuffle(game, 10)
    game = game.play("7-1")
    assert len(game.position.kings(Color.WHITE)) == 2
    assert game.endgame_plies == 11
    game = shuffle(game, 20)
    assert game.outcome() is None
    assert shuffle(game, 1).outcome() == draw(Termination.SIXTEEN_MOVES)


def test_dr_16_count_starts_with_the_first_position_with_such_material() -> None:
    game = begin("W:WK1,K2,28:BK50,23")
    assert game.endgame is None
    game = game.play("28x19")
    assert game.endgame is Endgame.SIXTEEN_MOVES and game.endgame_plies == 0
    game = shuffle(game, 31)
    assert game.outcome() is None
    assert shuffle(game, 1).outcome() == draw(Termination.SIXTEEN_MOVES)


def test_dr_16_material_outside_the_groups() -> None:
    assert begin("W:W31,32,33:BK50").endgame is None
    assert begin("W:WK1,K2,K3,K4:BK50").endgame is None
    assert begin("W:WK1,K2,K3:BK50,6").endgame is None
    assert begin("W:WK1,K2,31:BK50").endgame is Endgame.SIXTEEN_MOVES
    assert begin("W:WK1:BK50,K49,K48").endgame is Endgame.SIXTEEN_MOVES


# DR-17


def test_dr_17_five_moves_with_two_kings_against_one() -> None:
    game = shuffle(begin("W:WK1,K2:BK50"), 9)
    assert game.outcome() is None
    assert shuffle(game, 1).outcome() == draw(Termination.FIVE_MOVES)


def test_dr_17_king_and_man_against_king() -> None:
    game = begin("B:WK1,31:BK50")
    assert game.endgame is Endgame.FIVE_MOVES
    game = shuffle(game, 9)
    assert game.outcome() is None
    assert shuffle(game, 1).outcome() == draw(Termination.FIVE_MOVES)


def test_dr_17_capture_into_the_group_starts_the_count() -> None:
    game = begin("B:WK1,K2,K28:BK46")
    assert game.endgame is Endgame.SIXTEEN_MOVES
    game = game.play("46x5")
    assert game.endgame is Endgame.FIVE_MOVES and game.endgame_plies == 0
    game = shuffle(game, 9)
    assert game.outcome() is None
    assert shuffle(game, 1).outcome() == draw(Termination.FIVE_MOVES)


def test_dr_17_win_on_the_last_allowed_move_counts() -> None:
    game = shuffle(begin("B:WK1,K2:BK50"), 8)
    assert game.turn is Color.BLACK
    blunders = [m for m in game.legal_moves() if gives_capture(game, m)]
    game = game.play(blunders[0])
    assert game.endgame_plies == 9 and game.outcome() is None
    game = game.play(game.legal_moves()[0])
    assert len(game.moves) == 10
    assert game.outcome() == Outcome(Color.WHITE, Termination.NO_LEGAL_MOVE)


# DR-18 and DR-E9 (c)


def test_dr_e9_c_lone_king_against_lone_king_is_drawn_at_once() -> None:
    assert begin("W:WK1:BK50").outcome() == draw(Termination.LONE_KINGS)


def test_dr_18_capture_down_to_one_king_each() -> None:
    game = begin("W:WK46:BK5,37")
    assert game.outcome() is None
    game = game.play("46x32")
    assert game.outcome() == draw(Termination.LONE_KINGS)


def test_dr_18_not_for_king_against_man() -> None:
    assert begin("W:WK1:B45").outcome() is None


def test_dr_20_no_general_nobody_can_win_draw() -> None:
    # Two kings each cannot force a win, but only DR-14…DR-18 and agreement draw.
    game = begin("W:WK1,K2:BK49,K50")
    assert game.endgame is None
    assert shuffle(game, 40).outcome() is None


# DR-19 and DR-E9 (d)


def long_game(plies: int) -> Game:
    """A seeded random game from the start that lasts at least ``plies`` plies."""
    for seed in range(200):
        rng = random.Random(seed)
        game = Game.begin()
        while len(game.moves) < plies and game.outcome() is None:
            game = game.play(rng.choice(game.legal_moves()))
        if len(game.moves) >= plies:
            return game
    raise AssertionError("no long game found")


def test_dr_e9_d_draw_offers_only_after_forty_moves_each() -> None:
    game = long_game(82)
    start = game.start

    def at(ply: int) -> Game:
        return Game.replay(start, game.moves[:ply])

    assert not at(76).can_offer_draw(Color.WHITE)  # White's 39th move
    assert not at(78).can_offer_draw(Color.WHITE)  # White's 40th move
    assert not at(79).can_offer_draw(Color.BLACK)  # Black's 40th move
    assert at(80).can_offer_draw(Color.WHITE)  # White's 41st: both completed 40
    assert not at(80).can_offer_draw(Color.BLACK)  # only on one's own turn
    assert at(81).can_offer_draw(Color.BLACK)
    assert at(80).moves_made(Color.WHITE) == at(80).moves_made(Color.BLACK) == 40


def test_dr_19_moves_made_from_a_black_to_move_setup() -> None:
    game = begin("B:W31,32:B18,19").play("18-22").play("31-26").play("22-27")
    assert game.moves_made(Color.BLACK) == 2
    assert game.moves_made(Color.WHITE) == 1


def test_dr_19_no_offer_in_a_finished_game() -> None:
    game = begin("W:WK1:BK50")
    assert not game.can_offer_draw(Color.WHITE)


# DR-21


@pytest.mark.parametrize(
    ("fen", "winner"),
    [
        ("W:W31,32,33:BK1,K2", Color.WHITE),
        ("W:W31,32:BK1,K2", Color.BLACK),
        ("B:WK31,K32:B1,K2", Color.WHITE),
        ("W:WK31,32:BK1,12", None),
        ("W:W31:B1", None),
    ],
)
def test_dr_21_adjudication_pieces_then_kings(fen: str, winner: Color | None) -> None:
    outcome = adjudicate(Position.from_fen(fen))
    assert outcome == Outcome(winner, Termination.ADJUDICATION)
    assert outcome.reason.startswith("DR-21")


# The game value


def test_game_is_the_fold_of_its_moves() -> None:
    game = Game.begin().play("32-28").play("19-23").play("28x19")
    assert [str(m) for m in game.moves] == ["32-28", "19-23", "28x19"]
    assert Game.replay(Position.start(), ["32-28", "19-23", "28x19"]) == game
    assert game.turn is Color.BLACK
    assert game.position.legal_moves() == game.legal_moves()
