"""gnubg position and match IDs, checked against GNU Backgammon itself (PyPI ``gnubg``).

Where the expected values come from:
- ``gnubg.position_id`` / ``gnubg.position_from_id`` / ``gnubg.match_id`` are called
  live in the differential tests below.
- The recorded IDs come from the gnubg 1.1.0a16 Python module, driven by commands:
  ``new match 5`` gave ``4HPwATDgc/ABMA:MIGmAAAAAAAE`` (player 0 to play an opening
  5-1); ``set dice 3 1`` gave ``MIGlAAAAAAAE``; ``move 8/5 6/5`` gave
  ``sGfwATDgc/ABMA:cAmgAAAAAAAE`` with ``gnubg.board()`` equal to ``AFTER_8_5_6_5``.
- ``MAAAAAAAAAAA`` is ``gnubg.match_id(gnubg.cubeinfo(), gnubg.posinfo())``.
- Hand-made bad IDs are built with the stdlib ``base64`` from a key with the named bits.
"""

from __future__ import annotations

import base64
import random
import re
from dataclasses import replace

import gnubg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheshbesh.games.errors import InvalidPosition
from sheshbesh.games.race.gnubg_id import (
    GameState,
    MatchId,
    Resignation,
    decode_position_id,
    encode_position_id,
)

Board = tuple[tuple[int, ...], tuple[int, ...]]

START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
START: Board = (START_SIDE, START_SIDE)
MOVED_SIDE = (0, 0, 0, 0, 2, 4, 0, 2, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
AFTER_8_5_6_5: Board = (MOVED_SIDE, START_SIDE)  # [0] moved and is no longer on roll
EMPTY = (0,) * 25


def b64(key: int, size: int) -> str:
    """The base64 text of a little-endian key, the way gnubg packs it (no padding)."""
    return base64.b64encode(key.to_bytes(size, "little")).decode().rstrip("=")


def random_board(rng: random.Random) -> Board:
    """A board gnubg accepts: 0-15 checkers a side, bars, no point held by both sides."""
    while True:
        sides = [[0] * 25, [0] * 25]
        for side in rng.sample((0, 1), 2):
            other = sides[1 - side]
            free = [s for s in range(25) if s == 24 or other[23 - s] == 0]
            for _ in range(rng.randint(0, 15)):
                sides[side][rng.choice(free)] += 1
        closed = all(min(sides[0][i], sides[1][i]) >= 2 for i in range(6))
        if not (closed and sides[0][24] and sides[1][24]):  # gnubg refuses that one
            return tuple(sides[0]), tuple(sides[1])


# --- position IDs -----------------------------------------------------------------------


def test_start_position_id() -> None:
    assert decode_position_id("4HPwATDgc/ABMA") == START
    assert encode_position_id(START) == "4HPwATDgc/ABMA"


def test_position_after_a_move_puts_the_mover_in_board_0() -> None:
    assert decode_position_id("sGfwATDgc/ABMA") == AFTER_8_5_6_5
    assert encode_position_id(AFTER_8_5_6_5) == "sGfwATDgc/ABMA"


def test_gnubg_board_1_is_the_player_on_roll() -> None:
    # board[1] has one checker left on its ace point, board[0] fifteen on its 24 point:
    # gnubg says the side to move wins a backgammon, so it is board[1].
    board = ((0,) * 23 + (15, 0), (1,) + (0,) * 24)
    win, _, win_backgammon, *_ = gnubg.evaluate(board, gnubg.cubeinfo(), gnubg.evalcontext())
    assert win == 1.0 and win_backgammon > 0.99
    assert decode_position_id(encode_position_id(board)) == board


def test_lists_are_accepted_and_tuples_come_back() -> None:
    assert decode_position_id(encode_position_id(([0] * 25, list(START_SIDE)))) == (
        EMPTY,
        START_SIDE,
    )


def test_position_ids_agree_with_gnubg() -> None:
    rng = random.Random(20240611)
    for _ in range(5000):
        board = random_board(rng)
        pid = encode_position_id(board)
        assert pid == gnubg.position_id(board), board
        assert decode_position_id(pid) == board == gnubg.position_from_id(pid)


def test_shared_point_is_encoded_like_gnubg_though_gnubg_will_not_decode_it() -> None:
    # Plakoto pins put both colours on a point; the codec leaves that to the variant.
    pinned = ((1,) + (0,) * 24, (0,) * 23 + (1, 0))
    pid = encode_position_id(pinned)
    assert pid == gnubg.position_id(pinned)
    assert decode_position_id(pid) == pinned
    with pytest.raises(ValueError):
        gnubg.position_from_id(pid)


sides = st.lists(st.integers(0, 24), max_size=15).map(
    lambda slots: tuple(slots.count(slot) for slot in range(25))
)


@given(sides, sides)
def test_position_id_round_trip(not_on_roll: tuple[int, ...], on_roll: tuple[int, ...]) -> None:
    pid = encode_position_id((not_on_roll, on_roll))
    assert len(pid) == 14
    assert decode_position_id(pid) == (not_on_roll, on_roll)


@given(st.integers(0, (1 << 80) - 1))
def test_any_key_decodes_to_its_own_id_or_is_refused(key: int) -> None:
    pid = b64(key, 10)
    try:
        board = decode_position_id(pid)
    except InvalidPosition:
        return
    assert encode_position_id(board) == pid


@pytest.mark.parametrize(
    ("pid", "message"),
    [
        ("4HPw", "position ID '4HPw' has 4 characters, expected 14"),
        ("4HPwATDgc/ABMAA", "has 15 characters, expected 14"),
        ("4HPwATDgc/AB!A", "has '!' at 12, not a base64 character"),
        ("4HPwATDgc/ABM=", "has '=' at 13, not a base64 character"),
        ("4HPwATDgc/ABMB", "ends in 'B', which sets unused bits"),
        ("/////////////w", "gives board[0] (not on roll) more than 15 checkers"),
        (b64(0xFFFF << 25, 10), "gives board[1] (on roll) more than 15 checkers"),
        (
            b64(1 << 79, 10),
            "sets bit 79, past the board's last bit (49)",
        ),
    ],
)
def test_bad_position_ids(pid: str, message: str) -> None:
    with pytest.raises(InvalidPosition, match=re.escape(message)):
        decode_position_id(pid)


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ((EMPTY, EMPTY, EMPTY), "board has 3 sides, expected 2"),
        ((EMPTY[:24], EMPTY), "board[0] has 24 slots, expected 25 (points 1-24, then the bar)"),
        ((EMPTY, (-1, *EMPTY[1:])), "board[1][0] is -1, not a count 0-15"),
        ((EMPTY, (*EMPTY[:5], 16, *EMPTY[6:])), "board[1][5] is 16, not a count 0-15"),
        ((EMPTY, (True, *EMPTY[1:])), "board[1][0] is True, not a count 0-15"),
        ((EMPTY, (1.0, *EMPTY[1:])), "board[1][0] is 1.0, not a count 0-15"),
        (((*START_SIDE[:24], 1), EMPTY), "board[0] (not on roll) has 16 checkers, at most 15"),
    ],
)
def test_bad_boards(board: tuple[tuple[object, ...], ...], message: str) -> None:
    with pytest.raises(InvalidPosition, match=re.escape(message)):
        encode_position_id(board)  # type: ignore[arg-type]


# --- match IDs --------------------------------------------------------------------------


def test_default_match_id_is_gnubgs_default() -> None:
    assert gnubg.match_id(gnubg.cubeinfo(), gnubg.posinfo()) == "MAAAAAAAAAAA"
    assert MatchId().id() == "MAAAAAAAAAAA"
    assert MatchId.from_id("MAAAAAAAAAAA") == MatchId()


PLAYING_TO_5 = MatchId(game_state=GameState.PLAYING, match_length=5, jacoby=False)


@pytest.mark.parametrize(
    ("mid", "expected"),
    [
        ("MIGmAAAAAAAE", replace(PLAYING_TO_5, dice=(5, 1))),
        ("MIGlAAAAAAAE", replace(PLAYING_TO_5, dice=(3, 1))),
        ("cAmgAAAAAAAE", replace(PLAYING_TO_5, dice_owner=1, turn=1)),
    ],
)
def test_match_ids_recorded_from_a_gnubg_session(mid: str, expected: MatchId) -> None:
    # gnubg plays matches without the Jacoby rule, and says so in bit 67: jacoby=False.
    assert MatchId.from_id(mid) == expected
    assert expected.id() == mid


def random_match(rng: random.Random) -> tuple[MatchId, str]:
    """Random fields, and the match ID gnubg writes for them."""
    length = rng.choice([0, 0, rng.randint(1, 25)])
    cube = 1 << rng.randint(0, 6 if length else 15)
    # gnubg.cubeinfo zeroes the score and Crawford flag of a money game, so we do too.
    score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
    owner = rng.choice([None, 0, 1])
    dice = rng.choice([(0, 0), (rng.randint(1, 6), rng.randint(1, 6))])
    match = MatchId(
        cube=cube,
        cube_owner=owner,
        dice_owner=rng.randint(0, 1),
        crawford=bool(length) and rng.random() < 0.5,
        game_state=GameState(rng.randint(0, 4)),
        turn=rng.randint(0, 1),
        double_offered=rng.random() < 0.5,
        resignation=Resignation(rng.randint(0, 3)),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=rng.random() < 0.5,
    )
    # gnubg.cubeinfo(cube, owner (-1 centred), *dice owner*, length, score, crawford, bgv)
    cubeinfo = gnubg.cubeinfo(
        cube, -1 if owner is None else owner, match.dice_owner, length, score, match.crawford, 0
    )
    assert (cubeinfo["score"], cubeinfo["crawford"]) == (score, match.crawford)
    cubeinfo["jacoby"] = int(match.jacoby)
    # gnubg.posinfo(*turn* (its help says "player on roll"), resigned, doubled, state, dice)
    posinfo = gnubg.posinfo(
        match.turn, match.resignation, match.double_offered, match.game_state, dice
    )
    return match, gnubg.match_id(cubeinfo, posinfo)


def test_match_ids_agree_with_gnubg() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        match, mid = random_match(rng)
        assert match.id() == mid, match
        assert MatchId.from_id(mid) == match


def test_dice_are_kept_higher_first_as_gnubg_writes_them() -> None:
    assert MatchId(dice=(1, 4)).dice == (4, 1)
    cubeinfo, posinfo = gnubg.cubeinfo(), gnubg.posinfo(0, 0, 0, 1, (1, 4))
    assert MatchId.from_id(gnubg.match_id(cubeinfo, posinfo)).dice == (4, 1)
    assert MatchId.from_id(b64(1 << 8 | 1 << 15 | 4 << 18, 9)).dice == (4, 1)


def test_cube_value_is_stored_as_its_log2() -> None:
    assert MatchId.from_id(b64(15 | 3 << 4, 9)).cube == 32768
    assert MatchId(cube=8, cube_owner=1).id() == b64(3 | 1 << 4, 9)


matches = st.builds(
    MatchId,
    cube=st.sampled_from([1 << n for n in range(16)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    dice_owner=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(GameState),
    turn=st.integers(0, 1),
    double_offered=st.booleans(),
    resignation=st.sampled_from(Resignation),
    dice=st.just((0, 0)) | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    match_length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
)


@given(matches)
def test_match_id_round_trip(match: MatchId) -> None:
    mid = match.id()
    assert len(mid) == 12
    assert MatchId.from_id(mid) == match
    assert MatchId.from_id(mid).id() == mid


@pytest.mark.parametrize(
    ("mid", "message"),
    [
        ("MAAAAAAAAAA", "match ID 'MAAAAAAAAAA' has 11 characters, expected 12"),
        ("MAAAAAAAAAA-", "has '-' at 11, not a base64 character"),
        (b64(1 << 67, 9), "sets unused bits 68-72"),
        (b64(2 << 4, 9), "has cube owner bits 10 (0, 1 or 11 only)"),
        (b64(5 << 8, 9), "has game state 5 (0-4 only)"),
        (b64(7 << 15 | 1 << 18, 9), "dice (7, 1) are not two of 1-6, or (0, 0) before a roll"),
        (b64(3 << 15, 9), "dice (3, 0) are not two of 1-6, or (0, 0) before a roll"),
    ],
)
def test_bad_match_ids(mid: str, message: str) -> None:
    with pytest.raises(InvalidPosition, match=re.escape(message)):
        MatchId.from_id(mid)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cube": 3}, "cube 3 is not a power of two from 1 to 32768"),
        ({"cube": 65536}, "cube 65536 is not a power of two from 1 to 32768"),
        ({"cube": True}, "cube True is not a power of two from 1 to 32768"),
        ({"cube_owner": 2}, "cube owner 2 is not 0, 1 or None (centred)"),
        ({"dice_owner": 2}, "dice_owner 2 is not player 0 or 1"),
        ({"turn": -1}, "turn -1 is not player 0 or 1"),
        ({"crawford": 1}, "crawford 1 is not a bool"),
        ({"game_state": 5}, "game state 5 is not 0-4"),
        ({"resignation": 4}, "resignation 4 is not 0-3"),
        ({"dice": (0, 3)}, "dice (0, 3) are not two of 1-6, or (0, 0) before a roll"),
        ({"dice": [3, 1]}, "dice [3, 1] are not two of 1-6, or (0, 0) before a roll"),
        ({"match_length": 32768}, "match length 32768 is not 0 (money) to 32767"),
        ({"score": (1, -1)}, "score (1, -1) is not two numbers from 0 to 32767"),
    ],
)
def test_bad_match_fields(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidPosition, match=re.escape(message)):
        MatchId(**fields)  # type: ignore[arg-type]


def test_plain_ints_become_enums() -> None:
    match = MatchId(game_state=1, resignation=2)  # type: ignore[arg-type]
    assert match.game_state is GameState.PLAYING
    assert match.resignation is Resignation.GAMMON
