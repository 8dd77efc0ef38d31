"""Fair dice (PL-2): derivation, the box that commits and reveals, and log verification.

Expected dice are re-derived here with ``hmac``/``hashlib`` alone, never by
calling the module, so a mistake in ``sheshbesh.play.dice`` cannot hide itself.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import hashlib
import hmac
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import sheshbesh.play.dice
from sheshbesh.play.dice import (
    DiceBox,
    DiceError,
    InvalidNonce,
    InvalidProof,
    InvalidRoll,
    InvalidSeed,
    RollProof,
    commitment,
    derive_dice,
    verify_events,
    verify_record,
)

KNOWN_SEED = bytes(range(32))


def reference_dice(seed: bytes, nonce: str, roll: int, count: int) -> tuple[int, ...]:
    """The scheme of issue 4 written out independently of the module."""
    dice: list[int] = []
    for block in itertools.count():
        message = f"{nonce}:{roll}:{block}".encode()
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < 252:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    return tuple(dice)
    raise AssertionError("unreachable")


def seed_source(label: str = "test") -> Callable[[], bytes]:
    """Distinct, deterministic 32-byte seeds."""
    seeds: Iterator[bytes] = (
        hashlib.sha256(f"{label} seed {n}".encode()).digest() for n in itertools.count()
    )
    return lambda: next(seeds)


def honest_log(
    rolls: int = 200, new_seed: Callable[[], bytes] | None = None
) -> list[dict[str, Any]]:
    """A game log as the match layer writes it: start, then roll and play events."""
    new_seed = new_seed or seed_source()
    box = DiceBox.open(new_seed)
    events: list[dict[str, Any]] = [{"seq": 0, "type": "start", "next_commit": box.commit}]
    for k in range(1, rolls + 1):
        count = 8 if k % 50 == 0 else 2  # now and then a Chouette order roll
        dice, proof, box = box.roll(f"client-{k}", new_seed, count)
        event = {"type": "roll", "dice": list(dice), "proof": proof.to_json()}
        events.append({"seq": len(events), **event, "next_commit": box.commit})
        events.append({"seq": len(events), "type": "play", "play": "8/5 6/5"})
    return events


def at(events: list[dict[str, Any]], roll: int) -> int:
    """Index of the event that carries *roll*."""
    return next(i for i, e in enumerate(events) if e.get("proof", {}).get("roll") == roll)


LOG = honest_log()


def reference_dice_for(events: list[dict[str, Any]], roll: int) -> tuple[int, ...]:
    event = events[at(events, roll)]
    proof = event["proof"]
    return reference_dice(bytes.fromhex(proof["seed"]), proof["nonce"], roll, len(event["dice"]))


@pytest.fixture
def log() -> list[dict[str, Any]]:
    return LOG


@pytest.fixture
def fresh(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return copy.deepcopy(log)


# --- derivation -----------------------------------------------------------------------------


def test_pl2_known_answer_vectors() -> None:
    assert commitment(bytes(32)) == hashlib.sha256(bytes(32)).hexdigest()
    assert commitment(bytes(32)).startswith("66687aadf862bd77")
    assert derive_dice(KNOWN_SEED, "abc", 1) == (4, 5)
    assert derive_dice(KNOWN_SEED, "abc", 2, count=4) == (5, 3, 4, 3)
    for roll in range(1, 40):
        for count in (1, 2, 8):
            expected = reference_dice(KNOWN_SEED, "abc", roll, count)
            assert derive_dice(KNOWN_SEED, "abc", roll, count) == expected


def test_pl2_known_answer_by_hand() -> None:
    digest = hmac.new(KNOWN_SEED, b"abc:1:0", hashlib.sha256).digest()
    accepted = [b for b in digest if b < 252]
    assert derive_dice(KNOWN_SEED, "abc", 1) == (accepted[0] % 6 + 1, accepted[1] % 6 + 1)


def test_pl2_dice_continue_into_the_next_block() -> None:
    blocks = [hmac.new(KNOWN_SEED, f"n:3:{b}".encode(), hashlib.sha256).digest() for b in range(5)]
    stream = [byte % 6 + 1 for block in blocks for byte in block if byte < 252]
    assert derive_dice(KNOWN_SEED, "n", 3, 100) == tuple(stream[:100])
    assert len([b for b in blocks[0] if b < 252]) < 100


def test_pl2_rejection_sampling_skips_bytes_from_252() -> None:
    def digest(seed: bytes) -> bytes:
        return hmac.new(seed, b"n:1:0", hashlib.sha256).digest()

    candidates = (hashlib.sha256(b"%d" % n).digest() for n in itertools.count())
    seed = next(s for s in candidates if digest(s)[0] >= 252 and max(digest(s)[1:3]) < 252)
    first, second, third = digest(seed)[:3]
    assert first >= 252
    assert derive_dice(seed, "n", 1) == (second % 6 + 1, third % 6 + 1)
    assert derive_dice(seed, "n", 1) != (first % 6 + 1, second % 6 + 1)


nonces = st.text(
    st.characters(min_codepoint=32, max_codepoint=126, exclude_characters=":"),
    min_size=1,
    max_size=64,
)


@given(
    st.binary(min_size=32, max_size=32),
    nonces,
    st.integers(1, 10**6),
    st.integers(1, 40),
)
def test_pl2_derive_dice_matches_the_reference(
    seed: bytes, nonce: str, roll: int, count: int
) -> None:
    assert derive_dice(seed, nonce, roll, count) == reference_dice(seed, nonce, roll, count)


def test_pl2_faces_are_uniform_over_60000_dice() -> None:
    rng = random.Random(20240604)  # fixed: the test is deterministic, it cannot flake
    counts = [0] * 7
    for roll in range(1, 30_001):
        for die in derive_dice(rng.randbytes(32), f"{rng.getrandbits(64):x}", roll):
            counts[die] += 1
    assert all(9_500 <= n <= 10_500 for n in counts[1:]), counts
    chi_square = sum((n - 10_000) ** 2 / 10_000 for n in counts[1:])
    assert chi_square < 20, (chi_square, counts)  # 5 degrees of freedom: p ≈ 0.001


@pytest.mark.parametrize(
    ("nonce", "words"),
    [
        ("", "empty"),
        ("x" * 65, "65 characters"),
        ("a:b", "':' at position 1"),
        ("tab\there", "'\\t' at position 3"),
        ("café", "'é' at position 3"),
        (7, "must be a string"),
    ],
)
def test_pl2_bad_nonce_is_a_typed_error_naming_the_problem(nonce: Any, words: str) -> None:
    with pytest.raises(InvalidNonce, match=re.escape(words)):
        derive_dice(KNOWN_SEED, nonce, 1)


def test_pl2_nonce_limits_are_inclusive() -> None:
    assert len(derive_dice(KNOWN_SEED, "~" * 64, 1)) == 2
    assert len(derive_dice(KNOWN_SEED, " ", 1)) == 2


@pytest.mark.parametrize("seed", [bytes(31), bytes(33), b"", "00" * 32, bytearray(32)])
def test_pl2_seeds_are_exactly_32_bytes(seed: Any) -> None:
    with pytest.raises(InvalidSeed):
        derive_dice(seed, "n", 1)
    with pytest.raises(InvalidSeed):
        commitment(seed)


@pytest.mark.parametrize(("roll", "count"), [(0, 2), (-1, 2), (True, 2), (1, 0), (1, False)])
def test_pl2_roll_number_and_count_are_checked(roll: Any, count: Any) -> None:
    with pytest.raises(InvalidRoll):
        derive_dice(KNOWN_SEED, "n", roll, count)


def test_errors_are_value_errors() -> None:
    for error in (InvalidSeed, InvalidNonce, InvalidRoll, InvalidProof):
        assert issubclass(error, DiceError)
    assert issubclass(DiceError, ValueError)


# --- the box --------------------------------------------------------------------------------


def test_pl2_box_commits_before_and_reveals_with_the_roll() -> None:
    new_seed = seed_source("box")
    box = DiceBox.open(new_seed)
    assert box.next_roll == 1
    committed = box.commit
    dice, proof, after = box.roll("client nonce", new_seed)
    assert proof == RollProof(1, "client nonce", box.secret.hex(), committed)
    assert hashlib.sha256(bytes.fromhex(proof.seed)).hexdigest() == committed
    assert dice == reference_dice(box.secret, "client nonce", 1, 2) == proof.dice(2)
    assert after.next_roll == 2
    assert after.secret != box.secret
    assert after.commit == hashlib.sha256(after.secret).hexdigest()


def test_pl2_chouette_order_roll_has_one_die_per_participant() -> None:
    new_seed = seed_source()
    dice, proof, _ = DiceBox.open(new_seed).roll("bot", new_seed, count=8)
    assert len(dice) == 8
    assert proof.dice(8) == dice


def test_pl2_roll_numbers_count_over_the_whole_game() -> None:
    new_seed = seed_source()
    box = DiceBox.open(new_seed)
    for expected in range(1, 6):
        _, proof, box = box.roll("n", new_seed)
        assert proof.roll == expected


@pytest.mark.parametrize(
    ("nonce", "seed", "count", "error"),
    [
        ("a:b", bytes(range(1, 33)), 2, InvalidNonce),
        ("", bytes(range(1, 33)), 2, InvalidNonce),
        ("ok", bytes(31), 2, InvalidSeed),
        ("ok", "not bytes", 2, InvalidSeed),
        ("ok", KNOWN_SEED, 2, InvalidSeed),  # the seed being revealed: not fresh
        ("ok", bytes(range(1, 33)), 9, InvalidRoll),
        ("ok", bytes(range(1, 33)), 0, InvalidRoll),
    ],
)
def test_pl2_bad_roll_raises_and_leaves_the_box_unchanged(
    nonce: str, seed: Any, count: int, error: type[DiceError]
) -> None:
    box = DiceBox(5, KNOWN_SEED)
    before = (box.next_roll, box.secret, box.commit)
    with pytest.raises(error):
        box.roll(nonce, lambda: seed, count)
    assert (box.next_roll, box.secret, box.commit) == before
    assert box.roll("ok", lambda: bytes(range(1, 33)))[1].roll == 5


def test_box_is_frozen() -> None:
    box = DiceBox(1, KNOWN_SEED)
    with pytest.raises(dataclasses.FrozenInstanceError):
        box.next_roll = 2  # type: ignore[misc]
    with pytest.raises(InvalidRoll):
        DiceBox(0, KNOWN_SEED)
    with pytest.raises(InvalidSeed):
        DiceBox(1, bytes(16))


def test_pl2_secret_never_appears_in_repr_or_str() -> None:
    new_seed = seed_source()
    box = DiceBox.open(new_seed)
    rolled = box.roll("n", new_seed)
    _, proof, after = rolled
    for obj, texts in ((box, []), (after, [repr(rolled), str(rolled)])):
        for text in (repr(obj), str(obj), f"{obj}", *texts):
            assert obj.secret.hex() not in text
            assert repr(obj.secret) not in text
        assert obj.commit in repr(obj)
    assert proof.seed == box.secret.hex()  # revealed only with its roll


@given(st.integers(1, 10**9), nonces, st.binary(min_size=32, max_size=32))
def test_proof_round_trips_through_json(roll: int, nonce: str, seed: bytes) -> None:
    proof = RollProof(roll, nonce, seed.hex(), commitment(seed))
    assert RollProof.from_json(json.loads(json.dumps(proof.to_json()))) == proof


# --- verifying a log ------------------------------------------------------------------------


def test_pl2_honest_log_of_200_rolls_verifies(log: list[dict[str, Any]]) -> None:
    verdict = verify_events(log)
    assert verdict.honest
    assert verdict.rolls_checked == 200
    assert verdict.problems == ()
    record = json.loads(json.dumps({"game": "backgammon", "events": log}))
    assert verify_record(record) == verdict
    assert verdict.report().startswith("honest: 200 rolls checked")


def test_pl2_one_altered_die_fails(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 7)
    true = list(fresh[i]["dice"])
    fresh[i]["dice"][1] = true[1] % 6 + 1
    verdict = verify_events(fresh)
    assert not verdict.honest
    assert verdict.problems == (
        f"event {i} (seq {i}): roll 7: dice {fresh[i]['dice']} but the seed gives {true}",
    )
    assert verdict.report().startswith("NOT honest: 1 problem in 200 rolls")


@given(st.integers(1, 200), st.data())
def test_pl2_any_altered_die_fails(roll: int, data: st.DataObject) -> None:
    events, i = list(LOG), at(LOG, roll)
    events[i] = copy.deepcopy(LOG[i])
    dice = events[i]["dice"]
    slot = data.draw(st.integers(0, len(dice) - 1))
    dice[slot] = data.draw(st.sampled_from([f for f in range(1, 7) if f != dice[slot]]))
    assert (
        verify_events(events)
        .problems[0]
        .endswith(
            f"roll {roll}: dice {dice} but the seed gives {[*reference_dice_for(events, roll)]}"
        )
    )


def test_pl2_one_altered_seed_byte_fails(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 12)
    seed = bytearray.fromhex(fresh[i]["proof"]["seed"])
    seed[17] ^= 0x01
    fresh[i]["proof"]["seed"] = seed.hex()
    problems = verify_events(fresh).problems
    assert (
        f"event {i} (seq {i}): roll 12: seed does not match the commitment published before it"
        in (problems)
    )


def test_pl2_altered_seed_with_matching_commit_still_fails(fresh: list[dict[str, Any]]) -> None:
    """A forger who also rewrites the proof's commit is caught by the earlier publication."""
    i = at(fresh, 12)
    forged = bytes(range(100, 132))
    fresh[i]["proof"] |= {"seed": forged.hex(), "commit": hashlib.sha256(forged).hexdigest()}
    fresh[i]["dice"] = list(reference_dice(forged, fresh[i]["proof"]["nonce"], 12, 2))
    problems = verify_events(fresh).problems
    assert len(problems) == 2
    assert "roll 12: proof names commitment" in problems[0]
    assert problems[1].endswith("roll 12: seed does not match the commitment published before it")


def test_pl2_one_altered_nonce_fails(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 30)
    fresh[i]["proof"]["nonce"] = "someone-else"
    proof = fresh[i]["proof"]
    expected = list(reference_dice(bytes.fromhex(proof["seed"]), "someone-else", 30, 2))
    assert expected != fresh[i]["dice"]  # fixed data: this nonce does change the dice
    assert verify_events(fresh).problems == (
        f"event {i} (seq {i}): roll 30: dice {fresh[i]['dice']} but the seed gives {expected}",
    )


def test_pl2_dropped_roll_fails(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 5)
    del fresh[i]
    problems = verify_events(fresh).problems
    assert f"event {i + 1} (seq {i + 2}): roll 6 follows roll 4" in problems
    assert any(
        "roll 6: seed does not match the commitment published before it" in p for p in problems
    )


def test_pl2_swapped_rolls_fail(fresh: list[dict[str, Any]]) -> None:
    i, j = at(fresh, 3), at(fresh, 4)
    fresh[i], fresh[j] = fresh[j], fresh[i]
    problems = verify_events(fresh).problems
    assert f"event {i} (seq {j}): roll 4 follows roll 2" in problems
    assert f"event {j} (seq {i}): roll 3 follows roll 4" in problems
    assert (
        f"event {i} (seq {j}): roll 4: seed does not match the commitment published before it"
        in (problems)
    )


def test_pl2_commitment_published_after_the_roll_fails(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 10)
    late = fresh[i - 2].pop("next_commit")  # roll 9's event carried roll 10's commitment
    fresh.insert(i + 1, {"type": "commit", "next_commit": late})
    problems = verify_events(fresh).problems
    assert f"event {i} (seq {i}): roll 10: no commitment was published before it" in problems


def test_pl2_commitment_in_the_same_event_as_its_roll_fails(fresh: list[dict[str, Any]]) -> None:
    """An event's own next_commit is for the roll after it, never for its own dice."""
    i = at(fresh, 10)
    fresh[i]["next_commit"] = fresh[i - 2].pop("next_commit")
    problems = verify_events(fresh).problems
    assert problems[0] == f"event {i} (seq {i}): roll 10: no commitment was published before it"


def test_pl2_replacing_an_unused_commitment_is_reported(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 20)
    fresh.insert(i, {"type": "commit", "next_commit": hashlib.sha256(b"other").hexdigest()})
    problems = verify_events(fresh).problems
    assert problems[0].startswith(f"event {i}: next_commit replaces the commitment for roll 20")


def test_repeating_the_same_commitment_is_fine(fresh: list[dict[str, Any]]) -> None:
    i = at(fresh, 20)
    fresh.insert(i, {"type": "clock", "next_commit": fresh[i - 2]["next_commit"]})
    assert verify_events(fresh).honest


def test_pl2_no_commitment_at_all_fails(fresh: list[dict[str, Any]]) -> None:
    del fresh[0]["next_commit"]
    assert verify_events(fresh).problems == (
        "event 1 (seq 1): roll 1: no commitment was published before it",
    )


def test_pl2_reused_seed_is_reported() -> None:
    """Seed A revealed at roll 1 and used again for roll 3 was public before roll 3."""
    cycle = itertools.cycle([bytes([1]) * 32, bytes([2]) * 32])
    problems = verify_events(honest_log(3, lambda: next(cycle))).problems
    assert problems == (
        "event 5 (seq 5): roll 3: seed was already revealed with roll 1, "
        "so it was known before this roll",
    )


def test_a_log_starting_after_roll_1_fails() -> None:
    events = honest_log(3)
    del events[1:3]
    assert "event 1 (seq 3): roll 2 is the first roll; rolls count from 1" in (
        verify_events(events).problems
    )


# --- malformed input: problems, never exceptions ---------------------------------------------


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(event: dict[str, Any]) -> None:
        target = event
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


def _drop(path: tuple[str, ...]) -> Callable[[dict[str, Any]], None]:
    def apply(event: dict[str, Any]) -> None:
        target = event
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return apply


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_drop(("proof",)), "dice without a proof"),
        (_drop(("dice",)), "proof without dice"),
        (_set(("proof",), "abc"), "proof must be a JSON object, not str"),
        (_set(("proof",), None), "proof must be a JSON object, not null"),
        (_drop(("proof", "seed")), "proof has no 'seed'"),
        (_set(("proof", "roll"), "7"), "proof roll must be a int, not str"),
        (_set(("proof", "roll"), True), "proof roll must be a int, not bool"),
        (_set(("proof", "roll"), 0), "proof roll number must be a whole number from 1"),
        (_set(("proof", "seed"), "zz" * 32), "proof seed must be 64 lowercase hex digits"),
        (_set(("proof", "seed"), "AB" * 32), "proof seed must be 64 lowercase hex digits"),
        (_set(("proof", "commit"), "ab" * 31), "proof commit must be 64 lowercase hex digits"),
        (_set(("proof", "nonce"), "a:b"), "proof nonce contains ':'"),
        (_set(("proof", "extra"), 1), "proof has an unknown field 'extra'"),
        (_set(("dice",), "3-4"), "dice must be a list of 1 to 8 whole numbers, not '3-4'"),
        (_set(("dice",), []), "dice must be a list"),
        (_set(("dice",), [1] * 9), "dice must be a list"),
        (_set(("dice",), [1, "2"]), "dice must be a list"),
        (_set(("dice",), [1, 2.0]), "dice must be a list"),
        (_set(("next_commit",), 12), "next_commit must be 64 lowercase hex digits"),
    ],
)
def test_pl2_malformed_roll_event_is_a_problem(
    fresh: list[dict[str, Any]], change: Callable[[dict[str, Any]], None], words: str
) -> None:
    i = at(fresh, 50)  # a Chouette order roll with 8 dice
    change(fresh[i])
    verdict = verify_events(fresh)
    assert not verdict.honest
    assert verdict.rolls_checked == 200
    assert verdict.problems[0].startswith(f"event {i} (seq {i}): ")
    assert words in verdict.problems[0]
    assert all(f"event {i} " in p or f"event {i + 2} " in p for p in verdict.problems)


@pytest.mark.parametrize("event", [None, 3, "roll", [1, 2], []])
def test_non_object_event_is_a_problem(fresh: list[dict[str, Any]], event: Any) -> None:
    fresh.insert(3, event)
    assert verify_events(fresh).problems[0].startswith("event 3: must be a JSON object")


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ([], "the record must be a JSON object, not list"),
        (None, "the record must be a JSON object, not null"),
        ({}, 'the record has no "events" list'),
        ({"events": "x"}, 'the record has no "events" list'),
    ],
)
def test_malformed_record_is_a_problem(record: Any, problem: str) -> None:
    verdict = verify_record(record)
    assert (verdict.honest, verdict.rolls_checked, verdict.problems) == (False, 0, (problem,))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
event_keys = st.sampled_from(["dice", "proof", "next_commit", "seq", "roll", "nonce", "seed"])


@given(st.lists(st.dictionaries(event_keys, json_values) | json_values, max_size=6))
def test_arbitrary_events_never_raise(events: list[Any]) -> None:
    verdict = verify_events(events)
    assert verdict.honest == (verdict.problems == ())


@given(st.integers(1, 200), st.sampled_from(["dice", "proof"]), json_values)
def test_junk_in_a_roll_event_never_raises(roll: int, key: str, junk: Any) -> None:
    events, i = list(LOG), at(LOG, roll)
    assume(LOG[i][key] != junk)
    events[i] = {**LOG[i], key: junk}
    assert not verify_events(events).honest


# --- purity ---------------------------------------------------------------------------------


def test_dice_module_imports_no_randomness_clock_or_io() -> None:
    tree = ast.parse(Path(sheshbesh.play.dice.__file__).read_text())
    imported = {
        (alias.name if isinstance(node, ast.Import) else node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    allowed = {"__future__", "collections", "dataclasses", "hashlib", "hmac", "typing"}
    assert imported <= allowed, imported - allowed
