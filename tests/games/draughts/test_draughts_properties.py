"""Property tests: FEN round-trips, notation round-trips, pieces never grow.

Hypothesis runs derandomized and without a database, so every run is the same.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.games.draughts import Color, Position

DETERMINISTIC = settings(derandomize=True, database=None, deadline=None, max_examples=300)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any placement the rules allow: no man on its own crowning row."""
    squares = draw(st.lists(st.integers(1, 50), unique=True, max_size=24))
    kinds = draw(st.lists(st.sampled_from("mMkK"), min_size=len(squares), max_size=len(squares)))
    sets = {"m": 0, "M": 0, "k": 0, "K": 0}
    for square, kind in zip(squares, kinds, strict=True):
        if kind == "M" and square <= 5:
            kind = "K"
        if kind == "m" and square >= 46:
            kind = "k"
        sets[kind] |= 1 << square
    turn = draw(st.sampled_from(list(Color)))
    return Position(turn, sets["M"], sets["K"], sets["m"], sets["k"])


def _count(position: Position, color: Color) -> tuple[int, int]:
    return len(position.men(color)), len(position.kings(color))


@DETERMINISTIC
@given(positions())
def test_fen_round_trips(position: Position) -> None:
    text = position.fen()
    assert Position.from_fen(text) == position
    assert Position.from_fen(text).fen() == text


@DETERMINISTIC
@given(positions())
def test_notation_round_trips_for_every_legal_move(position: Position) -> None:
    for move in position.legal_moves():
        assert position.parse_move(str(move)) == move


@DETERMINISTIC
@given(positions())
def test_dr_11_piece_counts_never_grow(position: Position) -> None:
    mover = position.turn
    men, kings = _count(position, mover)
    other_men, other_kings = _count(position, mover.opponent)
    for move in position.legal_moves():
        after = position.apply(move)
        assert after.turn is mover.opponent
        new_men, new_kings = _count(after, mover)
        assert new_men + new_kings == men + kings
        assert new_kings >= kings
        new_other_men, new_other_kings = _count(after, mover.opponent)
        assert new_other_men <= other_men and new_other_kings <= other_kings
        assert (other_men + other_kings) - (new_other_men + new_other_kings) == len(move.captured)
        assert Position.from_fen(after.fen()) == after


@DETERMINISTIC
@given(positions())
def test_dr_10_every_capture_takes_the_same_greatest_number(position: Position) -> None:
    moves = position.legal_moves()
    sizes = {len(m.captured) for m in moves}
    assert len(sizes) <= 1
    outcomes = {(m.start, m.end, m.captured) for m in moves}
    assert len(outcomes) == len(moves)
    assert list(moves) == sorted(moves, key=lambda m: (m.path, m.captured))
