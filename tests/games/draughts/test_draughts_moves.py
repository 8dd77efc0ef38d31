"""Legal moves and notation: DR-4…DR-12 and the worked examples DR-E1…DR-E8."""

import pytest

from sheshbesh.games.draughts import (
    AmbiguousMove,
    IllegalMove,
    InvalidMove,
    Move,
    Piece,
    Position,
    format_move,
)


def notations(fen: str) -> list[str]:
    return [str(m) for m in Position.from_fen(fen).legal_moves()]


def after(fen: str, move: str) -> str:
    position = Position.from_fen(fen)
    return position.apply(position.parse_move(move)).fen()


def illegal(fen: str, move: str) -> None:
    with pytest.raises(IllegalMove, match=move):
        Position.from_fen(fen).parse_move(move)


# DR-5 / DR-6: quiet moves


def test_dr_5_men_step_one_square_forward_only() -> None:
    assert notations("W:W32:B1") == ["32-27", "32-28"]
    assert notations("B:W50:B19") == ["19-23", "19-24"]
    illegal("W:W32:B1", "32-37")
    illegal("W:W32:B1", "32-23")


def test_dr_5_a_man_cannot_step_onto_a_piece() -> None:
    assert notations("W:W32,27,28:B1") == ["27-21", "27-22", "28-22", "28-23"]


def test_dr_6_flying_king_any_distance_until_blocked() -> None:
    assert notations("W:WK46:B1") == [
        "46-5",
        "46-10",
        "46-14",
        "46-19",
        "46-23",
        "46-28",
        "46-32",
        "46-37",
        "46-41",
    ]
    assert notations("W:WK46,28:B1") == ["28-22", "28-23", "46-32", "46-37", "46-41"]


# DR-7…DR-9: captures and the compulsion to capture


def test_dr_e1_capture_is_compulsory() -> None:
    fen = "W:W31,32,33:B28,3"
    assert notations(fen) == ["32x23", "33x22"]
    for move in ("31-26", "31-27", "33-29"):
        illegal(fen, move)


def test_dr_7_man_captures_forwards_and_backwards_in_one_sequence() -> None:
    # Forwards over 22 to 17, then backwards over 21 to 26.
    fen = "W:W28:B22,21,1"
    assert notations(fen) == ["28x17x26"]
    assert after(fen, "28x17x26") == "B:W26:B1"


def test_dr_7_man_captures_only_an_adjacent_piece() -> None:
    assert notations("W:W37:B28,1") == ["37-31", "37-32"]


def test_dr_e5_men_capture_backwards() -> None:
    fen = "W:W23:B28,3"
    assert notations(fen) == ["23x32"]
    assert after(fen, "23x32") == "B:W32:B3"
    illegal(fen, "23-18")
    illegal(fen, "23-19")


def test_dr_9_a_capture_continues_while_it_can() -> None:
    assert notations("W:W47:B41,31,22") == ["47x36x27x18"]
    illegal("W:W47:B41,31,22", "47x36")


def test_dr_9_capture_even_when_harmful() -> None:
    fen = "W:W32,37:B28,19,14"
    assert notations(fen) == ["32x23"]
    assert notations(after(fen, "32x23")) == ["19x28"]


def test_dr_8_king_captures_from_a_distance_and_lands_anywhere_beyond() -> None:
    assert notations("W:WK46:B28,3") == ["46x5", "46x10", "46x14", "46x19", "46x23"]


def test_dr_e7_king_capture_is_compulsory() -> None:
    fen = "W:WK46:B28,3"
    assert sorted(notations(fen)) == sorted(["46x23", "46x19", "46x14", "46x10", "46x5"])
    for move in ("46-41", "46-37", "46-32"):
        illegal(fen, move)


def test_dr_8_king_cannot_jump_two_pieces_in_a_row() -> None:
    assert notations("W:WK46:B28,23,1") == ["46-32", "46-37", "46-41"]


# DR-10: majority rule


def test_dr_e2_majority_rule() -> None:
    fen = "W:W32,45:B27,28,19"
    assert notations(fen) == ["32x23x14"]
    assert Position.from_fen(fen).legal_moves()[0].captured == (19, 28)
    illegal(fen, "32x21")
    illegal(fen, "32x23")


def test_dr_10_a_king_counts_as_one_piece() -> None:
    # 33x22 would take a king; 45x34x25 takes two men: the two men must be taken.
    fen = "W:W33,45:BK28,40,30,1"
    assert notations(fen) == ["45x34x25"]
    illegal(fen, "33x22")


def test_dr_10_free_choice_among_equal_sequences() -> None:
    assert notations("W:W31,32,33:B28,3") == ["32x23", "33x22"]


def test_dr_e6_king_must_land_where_the_sequence_continues() -> None:
    fen = "W:WK46:B28,24,3"
    assert notations(fen) == ["46x19x30", "46x19x35"]
    illegal(fen, "46x23")
    illegal(fen, "46x14")


# DR-11: Turkish strike


def test_dr_e8_captured_pieces_block_until_the_end() -> None:
    fen = "W:WK22:B9,10,31"
    assert notations(fen) == ["22x4x15"]
    assert after(fen, "22x4x15") == "B:WK15:B31"
    illegal(fen, "22x36")
    with pytest.raises(IllegalMove):
        Position.from_fen(fen).parse_move("22x36x4x15")


def test_dr_11_no_piece_is_jumped_twice() -> None:
    fen = "W:WK46:B28,19,29,3"
    moves = Position.from_fen(fen).legal_moves()
    assert [str(m) for m in moves] == [
        "46x23x5",
        "46x23x10",
        "46x23x14",
        "46x23x34",
        "46x23x40",
        "46x23x45",
    ]
    assert all(len(set(m.captured)) == len(m.captured) == 2 for m in moves)


def test_dr_11_start_square_counts_as_empty_windmill() -> None:
    fen = "W:WK2:B7,8,17,18"
    assert notations(fen) == ["2x11x22x13x2"]
    assert after(fen, "2x11x22x13x2") == "B:WK2:B"
    # The mirror route is the same move (same square, same pieces).
    position = Position.from_fen(fen)
    assert position.parse_move("2x13x22x11x2") == position.legal_moves()[0]


def test_dr_11_man_may_pass_its_start_square() -> None:
    # A man's circuit that ends where it started is legal: the start square is empty.
    fen = "W:W33:B12,18,19,28,29"
    assert notations(fen) == ["33x22x13x24x33"]
    assert after(fen, "33x24x13x22x33") == "B:W33:B12"


def test_dr_11_same_end_different_pieces_are_different_moves() -> None:
    fen = "W:WK47:B4,9,12,19,29"
    position = Position.from_fen(fen)
    to_17 = [m for m in position.legal_moves() if m.end == 17]
    assert [str(m) for m in to_17] == ["47x20x3x17", "47x24x8x17"]
    assert {m.captured for m in to_17} == {(9, 12, 29), (12, 19, 29)}
    assert position.apply(to_17[0]) != position.apply(to_17[1])
    with pytest.raises(AmbiguousMove, match="47x20x3x17, 47x24x8x17"):
        position.parse_move("47x17")


# DR-12: promotion


def test_dr_e3_no_promotion_in_passing() -> None:
    fen = "W:W14:B8,9,45"
    assert notations(fen) == ["14x3x12"]
    assert Position.from_fen(after(fen, "14x3x12")).piece_at(12) is Piece.WHITE_MAN
    illegal(fen, "14x3")


def test_dr_e4_promotion_when_the_move_ends_on_the_back_row() -> None:
    fen = "W:W14:B9,45"
    assert notations(fen) == ["14x3"]
    assert after(fen, "14x3") == "B:WK3:B45"


def test_dr_12_quiet_move_to_the_back_row_promotes() -> None:
    assert after("W:W6:B45", "6-1") == "B:WK1:B45"
    assert after("B:W6:B45", "45-50") == "W:W6:BK50"


def test_dr_12_black_man_passing_the_back_row_stays_a_man() -> None:
    fen = "B:W42,43:B37"
    assert notations(fen) == ["37x48x39"]
    assert after(fen, "37x48x39") == "W:W:B39"


# DR-4 notation


def test_dr_4_notation_short_form_accepted_when_unambiguous() -> None:
    position = Position.from_fen("W:W32,45:B27,28,19")
    full = position.parse_move("32x23x14")
    assert position.parse_move("32x14") == full
    assert format_move(full) == str(full) == "32x23x14"


def test_dr_4_capture_must_be_written_as_capture() -> None:
    illegal("W:W31,32,33:B28,3", "32-23")


def test_notation_errors_are_typed() -> None:
    position = Position.start()
    for text in ("", "32", "32-", "32--28", "a-b", "32x", "32-28-23", "32 - 28x"):
        with pytest.raises(InvalidMove):
            position.parse_move(text)
    with pytest.raises(InvalidMove, match="square 51"):
        position.parse_move("51-46")
    with pytest.raises(IllegalMove, match="32-29"):
        position.parse_move("32-29")


def test_apply_rejects_moves_that_are_not_legal_here() -> None:
    with pytest.raises(IllegalMove, match="32-29"):
        Position.start().apply(Move((32, 29)))
    with pytest.raises(IllegalMove, match="2x13x22x11x2"):
        # a non-canonical route is not a legal move value; parse it instead
        Position.from_fen("W:WK2:B7,8,17,18").apply(Move((2, 13, 22, 11, 2), (7, 8, 17, 18)))


# Order snapshot: bots and hints depend on it.


def test_legal_move_order_snapshot() -> None:
    assert notations("W:W31-50:B1-20") == [
        "31-26",
        "31-27",
        "32-27",
        "32-28",
        "33-28",
        "33-29",
        "34-29",
        "34-30",
        "35-30",
    ]
    assert notations("W:WK44:B30,22,34,33,21,40") == [
        "44x35x13x27x16",
        "44x35x24x38x16",
    ]
    assert notations("W:WK41:B5,43,37,20,31,29") == ["41x14x25x48", "41x23x34x48"]
    assert notations("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26") == [
        "25-20",
        "27-22",
        "28-22",
        "33-29",
        "34-29",
        "37-31",
    ]


def test_dr_9_message_says_capture_is_compulsory() -> None:
    with pytest.raises(IllegalMove, match=r"31-26 .*capture is compulsory \(DR-9\)"):
        Position.from_fen("W:W31,32,33:B28,3").parse_move("31-26")
