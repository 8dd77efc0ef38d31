"""Chouette session records (issue 18): the JSON log replays and verifies (PL-2, CH-8).

A record is built as the server builds it (one ``FairDice`` box per table, the
``chouette_created`` event then every event the session returned); it must fold to
the live table, pass ``verify_dice`` (its order rolls and board rolls, its seq, its
money, its events as the rules make them), and every tampering must be named by the
event it touched.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from chouette_sessions import played_session, with_cube_action
from hypothesis import given, settings
from hypothesis import strategies as st

from sheshbesh.play.chouette_record import check_session, session_of
from sheshbesh.play.chouette_session import replay_session
from sheshbesh.play.record import InvalidRecord, any_game_of, dumps, loads, verify_dice

EVERYTHING = 11
"""A seed whose session has it all: a banker's double and a crew's, takes and drops, a
leave and a late join between games, games settled by the board (BF-13) and by a
banker's timeout (PL-7)."""


def rolls(record: dict[str, Any]) -> list[int]:
    """The indexes (created = 0) of the events that roll, the board's included."""
    return [
        index
        for index, event in enumerate(record["events"], 1)
        if "dice" in event or "dice" in event.get("e", {})
    ]


def first(record: dict[str, Any], test: Any) -> int:
    """The index (created = 0) of the first event that passes ``test``."""
    return next(i for i, event in enumerate(record["events"], 1) if test(event))


def tampered(record: dict[str, Any], index: int) -> tuple[dict[str, Any], dict[str, Any]]:
    copied = copy.deepcopy(record)
    return copied, copied["events"][index - 1]


def problems_of(record: dict[str, Any]) -> list[str]:
    verdict = verify_dice(record)
    assert not verdict.honest
    return list(verdict.problems)


@pytest.fixture(scope="module")
def session() -> tuple[dict[str, Any], Any]:
    return played_session(EVERYTHING)


def test_the_fixed_session_has_every_kind_of_event(session):
    record, table = session
    kinds = {event["type"] for event in record["events"]}
    assert with_cube_action(record) and {"banker_doubled", "crew_doubled", "left"} <= kinds
    reasons = {e["reason"] for e in record["events"] if e["type"] == "finished"}
    assert {"BF-13", "PL-7"} <= reasons and table.number == 3


def test_pl2_an_honest_session_verifies_order_rolls_and_board_rolls(session):
    record, table = session
    verdict = verify_dice(loads(dumps(record)))
    assert verdict.honest, verdict.problems
    assert verdict.rolls_checked == len(rolls(record))
    order = [e for e in record["events"] if e["type"] == "order_rolled"]
    assert order and order[0]["proof"]["roll"] == 1  # the order roll opens the box
    assert any_game_of(record) == table == replay_session(record["created"], record["events"])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), capacity=st.integers(3, 8), games=st.integers(1, 3))
def test_random_sessions_replay_and_verify(seed, capacity, games):
    record, table = played_session(seed, games, capacity, timeouts=0.02)
    verdict = verify_dice(record)
    assert verdict.honest, verdict.problems
    assert verdict.rolls_checked == len(rolls(record))
    assert any_game_of(record) == table
    assert sum(amount for _, amount in table.results) == 0


# --- tampering: each is named by its event -------------------------------------------------


def test_pl2_a_changed_board_die_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "board" and e["e"]["type"] == "rolled")
    bad, event = tampered(record, index)
    event["e"]["dice"][0] = event["e"]["dice"][0] % 6 + 1
    problems = problems_of(bad)
    assert problems[0].startswith(f"event {index} (seq {index}): roll ")
    assert "but the seed gives" in problems[0]


def test_pl2_a_changed_order_die_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "order_rolled")
    bad, event = tampered(record, index)
    event["dice"][0] = event["dice"][0] % 6 + 1
    assert problems_of(bad)[0].startswith(f"event {index} (seq {index}): roll 1: dice ")


def test_ch2_an_order_roll_with_a_die_short_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "order_rolled")
    bad, event = tampered(record, index)
    event["dice"].pop()
    assert any(p.startswith(f"event {index} ") and "roll" in p for p in problems_of(bad))


def test_ch2_a_lineup_the_order_roll_did_not_give_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "lineup_drawn")
    bad, event = tampered(record, index)
    event["banker"], event["rotation"][0] = event["rotation"][0], event["banker"]
    (problem,) = problems_of(bad)
    assert problem.startswith(f"event {index} (seq {index}, lineup_drawn): the record has banker")


def test_a_missing_event_is_named(session):
    record, _ = session
    bad = copy.deepcopy(record)
    del bad["events"][40]
    assert problems_of(bad) == [
        "event 41 has seq 42, not 41: an event is missing, added or out of place"
    ]


def test_a_log_cut_before_its_settlement_is_named(session):
    record, _ = session
    bad = copy.deepcopy(record)
    last = bad["events"].pop()
    assert last["type"] == "finished"
    (problem,) = problems_of(bad)
    assert f"the rules go on with event {last['seq']} (seq {last['seq']}, finished" in problem


def test_ch8_a_settlement_changed_so_it_still_sums_to_zero_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "finished" and e["reason"] == "BF-13")
    bad, event = tampered(record, index)
    event["paid"][0][1] += 1
    event["paid"][1][1] -= 1
    (problem,) = problems_of(bad)
    assert problem.startswith(f"event {index} (seq {index}, finished of game ")
    assert "the record has paid" in problem and "the rules give" in problem
    with pytest.raises(InvalidRecord, match=f"event {index} "):
        any_game_of(bad)


def test_ch5_a_drop_that_pays_more_than_it_takes_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "cube_dropped")
    bad, event = tampered(record, index)
    event["paid"][0][1] -= 1
    problems = problems_of(bad)
    assert problems[0].startswith(f"event {index} (seq {index}, cube_dropped of game ")
    assert "sum to -1, not 0" in problems[0]


def test_a_take_turned_into_a_drop_without_its_payment_is_named(session):
    record, _ = session
    index = first(record, lambda e: e["type"] == "cube_taken")
    bad, event = tampered(record, index)
    event["type"] = "cube_dropped"
    (problem,) = problems_of(bad)
    assert problem.startswith(f"event {index} (seq {index}, cube_dropped")
    assert "the record has paid None, the rules give [[" in problem  # a drop pays at once


def test_a_record_that_is_not_a_session_is_refused(session):
    record, _ = session
    bad = copy.deepcopy(record)
    bad["created"] = {"type": "created", "seq": 0}
    assert check_session(bad) == (
        ["event 0: a chouette record opens with its 'chouette_created' event"],
        None,
    )
    with pytest.raises(InvalidRecord, match="chouette_created"):
        session_of(bad)
