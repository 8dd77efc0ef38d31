"""FMJD FEN: reading (ranges, kings, both list orders), canonical writing, errors."""

import pytest

from sheshbesh.games.draughts import Color, InvalidPosition, Piece, Position

START = "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))


def test_dr_3_start_position() -> None:
    start = Position.start()
    assert start.fen() == START
    assert start.men(Color.WHITE) == tuple(range(31, 51))
    assert start.men(Color.BLACK) == tuple(range(1, 21))
    assert start.kings(Color.WHITE) == start.kings(Color.BLACK) == ()
    assert all(start.piece_at(s) is None for s in range(21, 31))


def test_dr_4_white_moves_first() -> None:
    assert Position.start().turn is Color.WHITE


def test_ranges_and_kings_on_input_canonical_output() -> None:
    position = Position.from_fen("W:WK46,31:B3")
    assert position.fen() == "W:W31,K46:B3"
    assert position.piece_at(46) is Piece.WHITE_KING
    assert position.piece_at(31) is Piece.WHITE_MAN
    assert position.piece_at(3) is Piece.BLACK_MAN
    assert Position.from_fen("W:W31-50:B1-20") == Position.start()
    assert Position.from_fen("B:BK1-3,10:WK48-50").fen() == "B:WK48,K49,K50:BK1,K2,K3,10"


def test_lenient_input_same_value() -> None:
    canonical = Position.from_fen("B:W31,K46:B3")
    for text in ("b:w31,k46:b3", " B : B3 : W K46 , 31 ", "B:W31,K46:B3.", "B:W31-31,K46:B3"):
        assert Position.from_fen(text) == canonical
        assert hash(Position.from_fen(text)) == hash(canonical)


def test_empty_side_is_allowed() -> None:
    assert Position.from_fen("B:W28:B").fen() == "B:W28:B"


def test_equality_by_canonical_form_ignores_move_cache() -> None:
    a = Position.from_fen("W:W32:B28")
    b = Position.from_fen("W:W32:B28")
    a.legal_moves()
    assert a == b
    assert len({a, b}) == 1
    assert a != Position.from_fen("B:W32:B28")
    assert repr(a) == "Position.from_fen('W:W32:B28')"


@pytest.mark.parametrize(
    ("fen", "token"),
    [
        ("W:W51:B1", "'51'"),
        ("W:W0:B1", "'0'"),
        ("W:W31,31:B1", "square 31"),
        ("W:W31:B31", "square 31"),
        ("W:W31:B1:W32", "W:W31:B1:W32"),
        ("X:W31:B1", "X:W31:B1"),
        ("W:W31:W32", "W32"),
        ("W:W31:X1", "'X1'"),
        ("W:W31,A:B1", "'A'"),
        ("W:W40-35:B1", "'40-35'"),
        ("W:W3:B10", "'3'"),
        ("W:W31:B47", "'47'"),
        ("", "''"),
    ],
)
def test_invalid_fen_names_the_bad_token(fen: str, token: str) -> None:
    with pytest.raises(InvalidPosition) as caught:
        Position.from_fen(fen)
    assert token in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_kings_may_stand_on_the_crowning_row() -> None:
    assert Position.from_fen("W:WK3:BK47").fen() == "W:WK3:BK47"


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        ((1 << 31, 1 << 31, 0, 0), "square 31"),
        ((1 << 51, 0, 0, 0), "square 51"),
        ((1, 0, 0, 0), "square 0"),
        ((1 << 3, 0, 0, 0), "crowning square 3"),
        ((0, 0, 1 << 48, 0), "crowning square 48"),
    ],
)
def test_positions_built_by_hand_are_checked(sets: tuple[int, int, int, int], message: str) -> None:
    with pytest.raises(InvalidPosition, match=message):
        Position(Color.WHITE, *sets)
