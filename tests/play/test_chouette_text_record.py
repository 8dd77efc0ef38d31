"""The text form of a chouette session (issue 18; docs/record-format.md, "Chouette sessions").

Exported from a record made as the server makes it, read back through the session's
rules, and written again: the same text, the same table, the same money. A file the
rules contradict is refused at its line.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from chouette_sessions import played_session
from hypothesis import given, settings
from hypothesis import strategies as st
from test_chouette_record import EVERYTHING, rolls

from sheshbesh.play.chouette_record import check_session, session_of
from sheshbesh.play.record import InvalidRecord, verify_dice
from sheshbesh.play.text_record import TextRecordError, export_text, import_text

NAMES = ["Ann", "Ben", "Cid", "Dora", "Eve", "Finn"]


def plays(record: dict[str, Any]) -> list[tuple[int, str, str]]:
    """Each game's plays in order (the board's confirmed ones, not its steps)."""
    return [
        (e["game"], e["e"]["side"], e["e"]["play"])
        for e in record["events"]
        if e["type"] == "board" and e["e"]["type"] == "played"
    ]


def money(record: dict[str, Any]) -> list[tuple[int, list[list[int]]]]:
    return [(e["seq"] and e["game"], e["paid"]) for e in record["events"] if "paid" in e]


def assert_round_trip(record: dict[str, Any]) -> str:
    text = export_text(record, seats=NAMES, date="2026.05.01")
    again = import_text(text)
    assert export_text(again, seats=NAMES, date="2026.05.01") == text
    first, second = session_of(record), session_of(again)
    assert (second.results, second.seats, second.number, second.closed) == (
        first.results, first.seats, first.number, first.closed,
    )  # fmt: skip
    assert second.next_lineup() == first.next_lineup()
    assert plays(again) == plays(record) and money(again) == money(record)
    return text


@pytest.fixture(scope="module")
def session() -> tuple[dict[str, Any], Any]:
    return played_session(EVERYTHING)


def test_a_session_exports_to_text_and_reads_back_to_the_same_table(session):
    record, table = session
    text = assert_round_trip(record)
    head, _seating, *games = text.split("\n\n")
    assert head.splitlines()[:4] == [
        '[Format "sheshbesh-text/1"]', '[Game "chouette"]', '[Seats "5"]', '[Seat0 "Ann"]',
    ]  # fmt: skip
    results = ", ".join(f"{seat} {amount:+d}" for seat, amount in table.results)
    assert f'[Results "{results}"]' in head and '[Result "*"]' in head
    assert [g.splitlines()[0].split(":")[0] for g in games] == ["game 1", "game 2", "game 3"]
    body = "\n".join(games)
    for words in ("banker doubles", "crew doubles", ", cube 2", ", pays ", "wins (BF-13)", "next:"):
        assert words in body, words


def test_the_order_roll_and_the_seating_read_as_lines(session):
    record, _ = session
    lines = export_text(record).split("\n\n")[1].splitlines()
    first_game = next(i for i, e in enumerate(record["events"]) if e["type"] == "game_started")
    seated = [e["seat"] for e in record["events"][:first_game] if e["type"] == "seated"]
    assert lines[: len(seated)] == [f"seated {seat}" for seat in seated]
    order = next(e for e in record["events"] if e["type"] == "order_rolled")
    assert (
        f"order {' '.join(map(str, order['seats']))}: {' '.join(map(str, order['dice']))}" in lines
    )
    assert lines[-1].startswith("drawn: banker ")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), capacity=st.integers(3, 8), games=st.integers(1, 3))
def test_random_sessions_round_trip_through_text(seed, capacity, games):
    record, _ = played_session(seed, games, capacity, timeouts=0.02)
    assert_round_trip(record)


def test_an_imported_session_replays_but_has_no_dice_proofs(session):
    record, _ = session
    again = import_text(export_text(record))
    assert check_session(again)[0] == []
    verdict = verify_dice(again)
    assert not verdict.honest
    assert sum("dice without a proof" in problem for problem in verdict.problems) == len(
        rolls(again)
    )


def test_a_closed_table_says_so_and_the_tag_is_checked():
    record, table = played_session(EVERYTHING, games=3, capacity=5)
    from sheshbesh.play.chouette_session import Close

    step = table.apply(Close())
    closed = {**record, "events": [*record["events"], *step.events]}
    text = assert_round_trip(closed)
    assert '[Result "closed"]' in text and text.rstrip().endswith("table closed")
    with pytest.raises(TextRecordError, match=r"the result is '\*' but the lines give 'closed'"):
        import_text(text.replace('[Result "closed"]', '[Result "*"]'))


# --- files the rules contradict ------------------------------------------------------------


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_ch8_a_settlement_that_pays_otherwise_is_refused_at_its_line(session):
    record, _ = session
    text = export_text(record)
    settled = next(line for line in text.splitlines() if line.startswith("crew wins (BF-13): "))
    seat, amount = settled.split(": ")[1].split(", ")[0].split()
    changed = settled.replace(f"{seat} {amount}", f"{seat} {int(amount) + 1:+d}", 1)
    number = line_of(text, settled)
    wanted = re.escape(f"line {number}: the game gives '{settled}' here, not '{changed}'")
    with pytest.raises(TextRecordError, match=wanted):
        import_text(text.replace(settled, changed))


def test_a_drop_written_as_a_take_is_refused_later_where_the_game_parts(session):
    record, _ = session
    text = export_text(record)
    drop = next(line for line in text.splitlines() if line.endswith(", pays 1") and "drops" in line)
    with pytest.raises(TextRecordError, match=r"line \d+: "):
        import_text(
            text.replace(drop, drop.replace("drops", "takes").replace("pays 1", "cube 2"), 1)
        )


def test_a_changed_die_is_refused_where_its_play_is_no_longer_legal(session):
    record, _ = session
    text = export_text(record)
    opening = next(line for line in text.splitlines() if line.startswith("opening "))
    dice = opening.split()[1]
    other = f"{dice[0]}-{int(dice[2]) % 6 + 1}"
    with pytest.raises(TextRecordError, match=f"line {line_of(text, opening)}: "):
        import_text(text.replace(opening, opening.replace(dice, other, 1), 1))


def test_wrong_results_a_missing_line_and_a_bad_table_are_refused(session):
    record, _ = session
    text = export_text(record)
    results = next(line for line in text.splitlines() if line.startswith("[Results "))
    with pytest.raises(TextRecordError, match=r"the results are .* but the payments give"):
        import_text(text.replace(results, '[Results "0 +1"]'))
    last = text.rstrip().splitlines()[-1]
    assert last.startswith("next: ")
    with pytest.raises(TextRecordError, match="the record ends, but the game goes on with 'next:"):
        import_text(text.rstrip().removesuffix(last))
    with pytest.raises(
        TextRecordError, match=r"line 3: a chouette table has 3-8 seats, not 9 \(CH-1\)"
    ):
        import_text(text.replace('[Seats "5"]', '[Seats "9"]'))
    with pytest.raises(TextRecordError, match="follows from nothing here"):
        import_text(text.replace("seated 0", "crew now 1 2"))


def test_a_tampered_record_is_not_exported(session):
    record, _ = session
    bad = copy.deepcopy(record)
    del bad["events"][10]
    with pytest.raises(InvalidRecord, match="event 11 has seq 12"):
        export_text(bad)
