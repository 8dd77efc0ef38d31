"""The verify-dice page (issue 6, PL-2): every roll recomputed in the browser.

Records are made the way the server makes them (``FairDice`` behind a race game
or a match) or fetched from a real club after a game played over its socket; the
page (the dev harness ``/static/dev/verify.html`` mounting ``views/verify.js``)
must give the verdict of ``sheshbesh.play.record.verify_dice`` (what ``sheshbesh
verify-dice`` prints) with the same rolls flagged, and ``fairdice.js`` must report
exactly its problems.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from club_client import Player, next_mover

from sheshbesh.play import actions as act
from sheshbesh.play.dice import derive_dice
from sheshbesh.play.fair import FairDice
from sheshbesh.play.match import Match
from sheshbesh.play.race import RaceGame
from sheshbesh.play.record import make_record, verify_dice

SCREENSHOTS = Path(__file__).parent / "screenshots"
HARNESS = "/static/dev/verify.html"
QUIET = (act.Resign, act.Undo, act.Double)  # keep random games short and the cube out
Record = dict[str, Any]


# --- records made as the server makes them ------------------------------------------------


def choose(actions: list[act.Action], rng: random.Random) -> act.Action:
    plain = [a for a in actions if not isinstance(a, QUIET)]
    action = rng.choice(plain or actions)
    if isinstance(action, act.Roll):
        action = act.Roll(action.side, nonce=f"client-{rng.randrange(10**6)}")
    return action


def race_record(variant: str = "backgammon", seed: int = 1) -> Record:
    rng = random.Random(seed)
    fair = FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.randrange(10**9)}")
    game, created = RaceGame.create(variant, commit=fair.commit)
    events: list[dict[str, Any]] = []
    while not game.finished:
        step = game.apply(choose(game.legal_actions(), rng), fair)
        game, events = step.game, events + list(step.events)
    return make_record(created, events)


def match_record(seed: int = 2) -> Record:
    rng = random.Random(seed)
    fair = FairDice.open(lambda: rng.randbytes(32), server_nonce=lambda: f"s{rng.randrange(10**9)}")
    match, created = Match.create("backgammon", 3, commit=fair.commit)
    events: list[dict[str, Any]] = []
    while not match.finished:
        step = match.apply(choose(match.legal_actions(), rng), fair)
        match, events = step.match, events + list(step.events)
    assert match.number >= 2, "the match should span games"
    return make_record(created, events, game="match")


def rolls_of(record: Record) -> list[dict[str, Any]]:
    """The roll events of a record, in order."""
    return [e for e in record["events"] if "proof" in e]


def python_verdict(record: Record) -> tuple[bool, int, list[str]]:
    verdict = verify_dice(record)
    return verdict.honest, verdict.rolls_checked, list(verdict.problems)


def honest_verdict(rolls: int) -> dict[str, str]:
    """The data attributes of the page's verdict for an honest record of ``rolls`` rolls."""
    return {"honest": "true", "rolls": str(rolls), "problems": "0", "testid": "verdict"}


def flagged_events(problems: list[str]) -> set[int]:
    """The event indexes (in [created, *events]) that Python's problems name."""
    return {int(m.group(1)) for p in problems if (m := re.match(r"event (\d+)", p))}


def event_index(record: Record, event: dict[str, Any]) -> int:
    return 1 + record["events"].index(event)


# --- the page ------------------------------------------------------------------------------


class Page:
    """A harness page plus the console errors and page errors it produced."""

    def __init__(self, browser: Any, base: str, width: int = 1440, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.base = base
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # A 404 (a missing catalog, an unknown game) is logged by the browser itself.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(f"console: {message.text}")

    def open(self, fragment: str = "", path: str = HARNESS) -> Page:
        self.page.goto(self.base + path + fragment)
        if path == HARNESS:
            self.page.wait_for_selector("body[data-ready=true]")
        return self

    def paste(self, record: Any) -> None:
        text = record if isinstance(record, str) else json.dumps(record)
        self.page.fill("[data-testid=verify-text]", text)
        self.page.click("[data-testid=verify-submit]")

    def verdict(self) -> dict[str, Any]:
        self.page.wait_for_selector("[data-testid=verdict]")
        return dict(self.page.eval_on_selector("[data-testid=verdict]", "e => ({...e.dataset})"))

    def message(self) -> dict[str, str]:
        self.page.wait_for_selector("[data-testid=verify-message]:not([data-kind=busy])")
        return dict(
            self.page.eval_on_selector(
                "[data-testid=verify-message]", "e => ({...e.dataset, text: e.textContent})"
            )
        )

    def rows(self) -> list[dict[str, Any]]:
        return list(
            self.page.eval_on_selector_all(
                "[data-testid=verify-table] tbody tr",
                """rows => rows.map(r => ({
                    index: +r.dataset.index, roll: r.dataset.roll ? +r.dataset.roll : null,
                    ok: r.dataset.ok === "true",
                    dice: [...r.querySelectorAll("[data-testid=dice] .verify-die")]
                        .map(d => +d.textContent),
                    recomputed: [...r.querySelectorAll("[data-testid=recomputed] .verify-die")]
                        .map(d => +d.textContent),
                    seed: r.querySelector("td:nth-child(4) code")?.title ?? null,
                    nonce: r.querySelector("td:nth-child(3) code")?.title ?? null,
                }))""",
            )
        )

    def port_problems(self, *records: Any) -> list[list[str]]:
        """fairdice.js's verifyRecord(record).problems for each record, run in this page."""
        return list(
            self.page.evaluate(
                """async (text) => {
                    const { verifyRecord } = await import("/static/js/fairdice.js");
                    const out = [];
                    for (const record of JSON.parse(text)) {
                        out.push((await verifyRecord(record)).problems);
                    }
                    return out;
                }""",
                json.dumps(records),
            )
        )

    def shot(self, name: str, full_page: bool = False) -> None:
        SCREENSHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def open_page(browser: Any, live_club: str) -> Iterator[Callable[..., Page]]:
    pages: list[Page] = []

    def make(fragment: str = "", width: int = 1440, height: int = 900, path: str = HARNESS) -> Page:
        page = Page(browser, live_club, width, height).open(fragment, path)
        pages.append(page)
        return page

    yield make
    for page in pages:
        assert not page.errors, page.errors
        page.close()


# --- honest records ---------------------------------------------------------------------


def test_an_honest_game_verifies_roll_by_roll_like_python(open_page) -> None:
    record = race_record("backgammon", seed=11)
    honest, checked, _ = python_verdict(record)
    assert honest and checked >= 10
    page = open_page()
    page.paste(record)
    verdict = page.verdict()
    assert verdict == honest_verdict(checked)
    rows = page.rows()
    assert len(rows) == checked
    assert [row["roll"] for row in rows] == list(range(1, checked + 1))
    assert all(row["ok"] for row in rows)
    for row, event in zip(rows, rolls_of(record), strict=True):
        proof = event["proof"]
        seed = bytes.fromhex(proof["seed"])
        expected = list(derive_dice(seed, proof["nonce"], proof["roll"], len(event["dice"])))
        assert row["dice"] == event["dice"] == expected == row["recomputed"]
        assert (row["seed"], row["nonce"]) == (proof["seed"], proof["nonce"])
        assert row["index"] == event_index(record, event)
    assert page.page.locator("[data-testid=verify-problems]").count() == 0


def test_every_race_variant_and_a_match_verify(open_page) -> None:
    page = open_page()
    records = [race_record(v, seed=5) for v in ("long_nardy", "plakoto", "russian_backgammon")]
    for record in [*records, match_record(seed=3)]:
        honest, checked, _ = python_verdict(record)
        assert honest
        page.paste(record)
        page.page.wait_for_selector(f"[data-testid=verdict][data-rolls='{checked}']")
        assert page.verdict()["honest"] == "true"
        assert len(page.rows()) == checked
        assert page.port_problems(record) == [[]]


# --- dishonest records -----------------------------------------------------------------


def altered_die(record: Record) -> tuple[Record, int]:
    bad = copy.deepcopy(record)
    target = rolls_of(bad)[4]
    target["dice"][0] = 7 - target["dice"][0]
    return bad, target["proof"]["roll"]


def wrong_seed(record: Record) -> tuple[Record, int]:
    bad = copy.deepcopy(record)
    target = rolls_of(bad)[2]
    target["proof"]["seed"] = "00" * 32
    return bad, target["proof"]["roll"]


def broken_chain(record: Record) -> tuple[Record, int]:
    """A roll publishes a different next commitment: the roll after it no longer checks."""
    bad = copy.deepcopy(record)
    rolls = rolls_of(bad)
    rolls[6]["next_commit"] = "ab" * 32
    return bad, rolls[7]["proof"]["roll"]


def dropped_roll(record: Record) -> tuple[Record, int]:
    """A roll event removed from the log: the next one follows a gap and another commitment."""
    bad = copy.deepcopy(record)
    rolls = rolls_of(bad)
    bad["events"].remove(rolls[3])
    return bad, rolls[4]["proof"]["roll"]


def decided_opening(record: Record) -> dict[str, Any]:
    return next(e for e in record["events"] if e["type"] == "opening" and e["starter"])


def flipped_starter(record: Record) -> tuple[Record, int]:
    """The other side starts: the dice, seed and commitments are untouched."""
    bad = copy.deepcopy(record)
    target = decided_opening(bad)
    target["starter"] = "B" if target["starter"] == "W" else "W"
    return bad, target["proof"]["roll"]


def first_dice_6_6(record: Record) -> tuple[Record, int]:
    bad = copy.deepcopy(record)
    target = decided_opening(bad)
    target["first_dice"] = [6, 6]
    return bad, target["proof"]["roll"]


def ignored_added(record: Record) -> tuple[Record, int]:
    bad = copy.deepcopy(record)
    target = [e for e in rolls_of(bad) if e["type"] == "rolled"][3]
    target["ignored"] = "RB-8"
    return bad, target["proof"]["roll"]


def dice_cut_to_one(record: Record) -> tuple[Record, int]:
    bad = copy.deepcopy(record)
    target = [e for e in rolls_of(bad) if e["type"] == "rolled"][2]
    target["dice"] = target["dice"][:1]
    return bad, target["proof"]["roll"]


def dice_extended_to_four(record: Record) -> tuple[Record, int]:
    """Four dice, all of them the seed's own: only the rules say that a roll has two."""
    bad = copy.deepcopy(record)
    target = [e for e in rolls_of(bad) if e["type"] == "rolled"][2]
    proof = target["proof"]
    target["dice"] = list(
        derive_dice(bytes.fromhex(proof["seed"]), proof["nonce"], proof["roll"], 4)
    )
    return bad, proof["roll"]


@pytest.mark.parametrize(
    "tamper",
    [altered_die, wrong_seed, broken_chain, dropped_roll, flipped_starter, first_dice_6_6,
     ignored_added, dice_cut_to_one, dice_extended_to_four],
)  # fmt: skip
def test_a_tampered_record_is_not_honest_and_names_the_roll(open_page, tamper) -> None:
    record, roll = tamper(race_record("backgammon", seed=12))
    honest, checked, problems = python_verdict(record)
    assert not honest
    page = open_page()
    page.paste(record)
    verdict = page.verdict()
    assert verdict["honest"] == "false"
    assert (verdict["rolls"], verdict["problems"]) == (str(checked), str(len(problems)))
    rows = page.rows()
    bad_rows = [row for row in rows if not row["ok"]]
    assert [row["roll"] for row in bad_rows] == [roll]
    assert {row["index"] for row in bad_rows} == flagged_events(problems)
    listed = page.page.eval_on_selector_all(
        "[data-testid=verify-problems] li", "items => items.map(i => +i.dataset.index)"
    )
    assert set(listed) == flagged_events(problems) and len(listed) == len(problems)
    assert page.port_problems(record) == [problems]
    if tamper is altered_die:
        row = bad_rows[0]
        assert row["dice"] != row["recomputed"]
        assert page.page.locator(".verify-die-off").count() == 1
    # A problem in the list leads to its row.
    page.page.click("[data-testid=verify-problems] button")
    focused = page.page.evaluate("({...document.activeElement.dataset})")
    assert (focused["ok"], int(focused["roll"])) == ("false", roll)
    # Only the rolls with a problem, when asked.
    page.page.check("[data-testid=verify-only-bad]")
    assert page.page.locator("[data-testid=verify-table] tbody tr:visible").count() == 1


def test_a_tampered_match_is_flagged_in_its_second_game(open_page) -> None:
    record = match_record(seed=3)
    second = [e for e in rolls_of(record) if e.get("game") == 2]
    record = copy.deepcopy(record)
    target = next(e for e in rolls_of(record) if e["seq"] == second[1]["seq"])
    target["dice"] = [7 - d for d in target["dice"]]
    honest, _, problems = python_verdict(record)
    assert not honest and len(problems) == 1
    page = open_page()
    page.paste(record)
    assert page.verdict()["honest"] == "false"
    assert [r["roll"] for r in page.rows() if not r["ok"]] == [target["proof"]["roll"]]
    assert page.port_problems(record) == [problems]


def test_what_the_dice_decide_is_checked_like_python(open_page) -> None:
    """Opening seats, first dice and RB-8 in every variant: fairdice.js says what Python says."""
    long_nardy = race_record("long_nardy", seed=5)
    seat = copy.deepcopy(long_nardy)
    decided_opening(seat)["white_seat"] ^= 1
    no_first_dice = copy.deepcopy(long_nardy)
    decided_opening(no_first_dice)["first_dice"] = [6, 6]
    russian = race_record("russian_backgammon", seed=5)
    played_instead = copy.deepcopy(russian)
    ignored = next(e for e in rolls_of(played_instead) if e.get("ignored"))
    del ignored["ignored"]
    nameless = copy.deepcopy(russian)
    del nameless["created"]["variant"]
    records = [seat, no_first_dice, played_instead, nameless]
    expected = [python_verdict(record)[2] for record in records]
    assert all(len(problems) == 1 for problems in expected), expected
    assert "White seat" in expected[0][0] and "RB-8 ignores" in expected[2][0]
    assert open_page().port_problems(*records) == expected


def test_a_race_record_relabelled_as_draughts_is_not_honest(open_page) -> None:
    record = race_record("backgammon", seed=16)
    record["game"] = "draughts"
    honest, checked, problems = python_verdict(record)
    assert not honest and problems == [
        "record kind 'draughts' has rolls, but draughts is played without dice"
    ]
    page = open_page()
    page.paste(record)
    verdict = page.verdict()
    assert (verdict["honest"], verdict["rolls"], verdict["problems"]) == (
        "false",
        str(checked),
        "1",
    )
    listed = page.page.inner_text("[data-testid=verify-problems]")
    assert "draughts" in listed
    assert page.port_problems(record) == [problems]


def test_the_variant_table_of_fairdice_js_is_the_rules(open_page) -> None:
    from sheshbesh.games.race import find_rules
    from sheshbesh.games.race.position import RACE_VARIANTS
    from sheshbesh.play.race import WINNER_TAKES_WHITE

    table = open_page().page.evaluate(
        """async () => (await import("/static/js/fairdice.js")).RACE_VARIANTS"""
    )
    assert table == {
        name: {
            "opening": find_rules(name).opening,
            "winnerTakesWhite": name in WINNER_TAKES_WHITE,
            "doublesChain": find_rules(name).doubles_chain,
        }
        for name in RACE_VARIANTS
    }


MUTATIONS: list[Callable[[list[dict[str, Any]], random.Random], None]] = []


def mutation(function: Callable[[list[dict[str, Any]], random.Random], None]) -> Any:
    MUTATIONS.append(function)
    return function


def _roll(events: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    return rng.choice([e for e in events if isinstance(e, dict) and "proof" in e])


@mutation
def _swap_dice(events, rng):
    target = _roll(events, rng)
    target["dice"] = [*reversed(target["dice"]), rng.randint(1, 6)]


@mutation
def _bad_dice(events, rng):
    _roll(events, rng)["dice"] = rng.choice(["6-6", [], [True, 2], [1.5, 2], None, list(range(9))])


@mutation
def _no_dice(events, rng):
    del _roll(events, rng)["dice"]


@mutation
def _no_proof(events, rng):
    del _roll(events, rng)["proof"]


@mutation
def _proof_field(events, rng):
    proof = _roll(events, rng)["proof"]
    field = rng.choice(["roll", "nonce", "seed", "commit"])
    if rng.random() < 0.5:
        del proof[field]
    else:
        proof[field] = rng.choice([None, True, 3, "x", "AB" * 32, 0, -2, [1]])


@mutation
def _proof_extra(events, rng):
    _roll(events, rng)["proof"]["why"] = 'it\'s "fine"\n'


@mutation
def _nonce(events, rng):
    _roll(events, rng)["proof"]["nonce"] = rng.choice(["", "a:b", "x" * 65, "é", "tab\there"])


@mutation
def _roll_number(events, rng):
    proof = _roll(events, rng)["proof"]
    proof["roll"] += rng.choice([-1, 1, 5])


@mutation
def _reuse_seed(events, rng):
    first, later = sorted(rng.sample([e for e in events if "proof" in e], 2), key=events.index)
    later["proof"]["seed"] = first["proof"]["seed"]


@mutation
def _next_commit(events, rng):
    target = rng.choice(events)
    target["next_commit"] = rng.choice(["zz", None, "CD" * 32, "cd" * 32, 7])


@mutation
def _commit(events, rng):
    _roll(events, rng)["proof"]["commit"] = "ef" * 32


@mutation
def _drop_event(events, rng):
    events.remove(rng.choice(events[1:]))


@mutation
def _duplicate_roll(events, rng):
    target = _roll(events, rng)
    events.insert(events.index(target) + 1, copy.deepcopy(target))


@mutation
def _not_an_event(events, rng):
    events[rng.randrange(1, len(events))] = rng.choice([3, "roll", None, [1, 2]])


@mutation
def _seq(events, rng):
    _roll(events, rng)["seq"] = rng.choice([True, "7", 2.5, -4])


@mutation
def _opening(events, rng):
    openings = [e for e in events if isinstance(e, dict) and e.get("type") == "opening"]
    if openings:
        field = rng.choice(["starter", "white_seat", "first_dice"])
        rng.choice(openings)[field] = rng.choice(["W", "B", None, 0, 1, True, [6, 6], "x"])


@mutation
def _ignored(events, rng):
    _roll(events, rng)["ignored"] = rng.choice(["RB-8", True, None, 0])


@mutation
def _dice_count(events, rng):
    target = _roll(events, rng)
    if isinstance(target.get("dice"), list):
        target["dice"] = rng.choice([target["dice"][:1], [*target["dice"], 5, 2]])


@mutation
def _type_or_variant(events, rng):
    if rng.random() < 0.5:
        _roll(events, rng)["type"] = rng.choice(["roll", "opening", "rolled", None, ["rolled"]])
    else:
        events[0]["variant"] = rng.choice([None, "draughts", "long_nardy", ["backgammon"]])


def test_fairdice_js_reports_exactly_what_python_reports(open_page) -> None:
    """A differential check of the port: random damage, the same problems word for word."""
    base = race_record("backgammon", seed=21)
    events = [base["created"], *base["events"]]
    rng = random.Random(2024)
    records, expected = [], []
    for round_ in range(120):
        damaged = copy.deepcopy(events)
        for _ in range(1 + round_ % 3):
            rng.choice(MUTATIONS)(damaged, rng)
        records.append(make_record(damaged[0], damaged[1:]))
        expected.append(list(verify_dice(records[-1]).problems))
    assert sum(1 for problems in expected if problems) >= 110
    got = open_page().port_problems(*records)
    for round_, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, round_


# --- bad input -------------------------------------------------------------------------


DRAUGHTS = {
    "format": "sheshbesh-record/1",
    "game": "draughts",
    "created": {"type": "created", "seq": 0},
    "events": [{"type": "move", "seq": 1}],
}


def test_bad_input_gives_a_clear_message_and_no_error(open_page) -> None:
    page = open_page()
    page.page.click("[data-testid=verify-submit]")
    message = page.message()
    assert (message["kind"], message["code"]) == ("error", "empty") and message["text"].strip()
    cases = [
        ("{not json", "error", "not_json"),
        ("[1, 2, 3]", "error", "record_not_object"),
        ('{"hello": "world"}', "error", "not_a_record"),
        ('{"format": "sheshbesh-record/1", "game": "race"}', "error", "record_incomplete"),
        (DRAUGHTS, "info", "no_dice"),
        (make_record(RaceGame.create("backgammon", commit="ab" * 32)[1], []), "info", "no_rolls"),
    ]
    for given, kind, code in cases:
        page.paste(given)
        page.page.wait_for_selector(f"[data-testid=verify-message][data-code={code}]")
        message = page.message()
        assert (message["kind"], message["code"]) == (kind, code)
        assert message["text"].strip()
        assert page.page.locator("[data-testid=verdict]").count() == 0
    page.page.fill("[data-testid=verify-game]", "no-such-game")
    page.page.click("[data-testid=verify-open]")
    page.page.wait_for_selector("[data-testid=verify-message][data-code=not_found]")
    page.page.fill("[data-testid=verify-game]", "../../etc")
    page.page.click("[data-testid=verify-open]")
    page.page.wait_for_selector("[data-testid=verify-message][data-code=bad_game]")


def test_without_web_crypto_the_page_says_so(open_page) -> None:
    """Web Crypto exists only in secure contexts (HTTPS, localhost): elsewhere, a message."""
    page = open_page()
    page.page.evaluate("Object.defineProperty(Crypto.prototype, 'subtle', {get: () => undefined})")
    page.paste(race_record("backgammon", seed=15))
    page.page.wait_for_selector("[data-testid=verify-message][data-code=no_crypto]")
    assert page.message()["kind"] == "error"


def test_a_record_opened_from_a_file(open_page) -> None:
    record = race_record("backgammon", seed=13)
    _, checked, _ = python_verdict(record)
    page = open_page()
    upload = {
        "name": "game.json",
        "mimeType": "application/json",
        "buffer": json.dumps(record).encode(),
    }
    page.page.set_input_files("[data-testid=verify-file]", files=[upload])
    assert page.verdict() == honest_verdict(checked)
    assert "game.json" in page.page.inner_text("[data-testid=verdict]")


# --- a real game of the club --------------------------------------------------------------


def play(sockets: list[Any], rng: random.Random, actions: int | None) -> None:
    """Play legal actions (rolls with a client nonce) until ``actions`` or the end."""
    done = 0
    while actions is None or done < actions:
        mover = next_mover(sockets)
        if mover is None:
            return
        menu = [a for a in mover.legal or [] if a["type"] not in ("resign", "double", "undo")]
        choice = dict(rng.choice(menu or mover.legal or []))
        if choice["type"] == "roll":
            choice["nonce"] = f"web-{rng.randrange(16**8):08x}"
        frame = mover.act(choice)
        assert frame["t"] != "error", (choice, frame)
        done += 1


def test_a_game_played_on_the_club_verifies_live_and_finished(open_page, live_club) -> None:
    tag = f"{random.Random().randrange(16**6):06x}"
    ann, bob = Player(live_club, f"ann{tag}").register(), Player(live_club, f"bob{tag}").register()
    try:
        offer = ann.offer(variant="backgammon", stake=10, cube=True)
        game_id = bob.accept(offer["id"])["id"]
        sockets = [ann.watch(game_id), bob.watch(game_id)]
        for sock in sockets:
            sock.until(lambda f: f["t"] == "snapshot")
        rng = random.Random(6)
        play(sockets, rng, actions=12)
        live = ann.get(f"/api/games/{game_id}/record").json()
        honest, checked, _ = python_verdict(live)
        assert honest and checked >= 3
        page = open_page(f"#/verify?game={game_id}")
        assert page.verdict() == honest_verdict(checked)
        assert len(page.rows()) == checked
        assert game_id in page.page.inner_text("[data-testid=verdict]")
        assert page.page.input_value("[data-testid=verify-game]") == game_id

        play(sockets, rng, actions=None)
        finished = ann.get(f"/api/games/{game_id}/record").json()
        honest, checked, _ = python_verdict(finished)
        assert honest and checked > len(rolls_of(live))
        page.page.click("[data-testid=verify-open]")
        page.page.wait_for_selector(f"[data-testid=verdict][data-rolls='{checked}']")
        assert page.verdict()["honest"] == "true"
        assert all(row["ok"] for row in page.rows())

        # The club's own page routes #/verify?game=ID to the same view (app.js).
        shell = open_page(f"#/verify?game={game_id}", path="/")
        assert shell.verdict() == honest_verdict(checked)
    finally:
        ann.close()
        bob.close()


# --- screenshots ---------------------------------------------------------------------------


@pytest.mark.parametrize("width, height", [(390, 844), (1440, 900)])
def test_screenshots(open_page, width: int, height: int) -> None:
    honest = race_record("backgammon", seed=14)
    page = open_page(width=width, height=height)
    page.shot(f"verify-empty-{width}.png")
    page.paste(honest)
    page.verdict()
    page.shot(f"verify-honest-{width}.png")
    page.shot(f"verify-honest-{width}-full.png", full_page=True)
    for tamper in (altered_die, broken_chain):
        bad, _ = tamper(honest)
        page.paste(bad)
        page.page.wait_for_selector("[data-testid=verdict][data-honest=false]")
        page.shot(f"verify-{tamper.__name__}-{width}.png")
        page.page.locator("tr[data-ok=false]").first.scroll_into_view_if_needed()
        page.shot(f"verify-{tamper.__name__}-{width}-row.png")
        page.page.evaluate("window.scrollTo(0, 0)")
        page.page.fill("[data-testid=verify-text]", "")
    page.paste("{not json")
    page.message()
    page.shot(f"verify-not-json-{width}.png")
    overflow = page.page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, "the page scrolls sideways"
    # The same view inside the club's page (app.js, club.css).
    shell = open_page("#/verify", width=width, height=height, path="/")
    shell.page.wait_for_selector("[data-testid=verify-text]")
    shell.paste(altered_die(honest)[0])
    shell.verdict()
    shell.shot(f"verify-shell-{width}.png")
    overflow = shell.page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, "the club's page scrolls sideways"
