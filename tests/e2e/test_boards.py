"""The SVG boards in a real browser: the dev gallery (static/dev/boards.html) draws every
variant, and clicks, drags and keys on it must record exactly the legal actions (BF-10).

The gallery is served from the source tree by a throwaway ``http.server``, so these tests
need no club server. They drive Debian's Chromium; without it they are skipped, unless
``SHESHBESH_REQUIRE_BROWSER=1`` says the browser must be there.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
WEB = Path(__file__).resolve().parents[2] / "src" / "sheshbesh" / "web"
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
RACE_SAMPLES = 20
DRAUGHTS_SAMPLES = 5


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def gallery_url() -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(WEB))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/static/dev/boards.html"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("SHESHBESH_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing and SHESHBESH_REQUIRE_BROWSER=1")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _open(browser: Any, url: str, width: int, height: int) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("window.galleryReady === true", polling=100)
    return context, page, errors


@pytest.fixture
def page(browser: Any, gallery_url: str) -> Iterator[Any]:
    context, page, errors = _open(browser, gallery_url, 1440, 900)
    yield page
    context.close()
    assert errors == []


def events(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.boardEvents")  # type: ignore[no-any-return]


def hit(page: Any, sample: str, selector: str) -> Any:
    return page.locator(f'[data-sample="{sample}"] {selector}')


def point(page: Any, sample: str, n: int) -> Any:
    """Point n as the viewer numbers it (the numbers printed on the board's rim)."""
    return hit(page, sample, f'[data-point="{n}"]')


def square(page: Any, sample: str, n: int) -> Any:
    return hit(page, sample, f'[data-square="{n}"]')


def centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, source: Any, target: Any) -> None:
    source.scroll_into_view_if_needed()
    x0, y0 = centre(source)
    x1, y1 = centre(target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 4, y0 + 4, steps=2)
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()


def test_gallery_draws_every_sample_without_console_errors(page: Any) -> None:
    assert page.locator(".sb-race svg").count() == RACE_SAMPLES
    assert page.locator(".sb-draughts svg").count() == DRAUGHTS_SAMPLES
    variants = page.evaluate(
        "[...document.querySelectorAll('.sb-race svg')].map(s => s.getAttribute('class'))"
    )
    for variant in (
        "backgammon", "short_nardy", "takhte_nard", "caucasian_nardy",
        "plakoto", "russian_backgammon", "long_nardy", "jacquet",
    ):  # fmt: skip
        assert any(f"sb-variant-{variant}" in c for c in variants), variant
    # every point, the bar and the trays are buttons with a name
    bar = hit(page, "bg-bar", '[data-key="bar"]')
    assert bar.get_attribute("role") == "button"
    assert bar.get_attribute("tabindex") == "0"
    assert hit(page, "bg-bar", ".sb-hit").count() == 24 + 1 + 2 + 1  # points, bar, trays, dice
    assert "5" in point(page, "bg-start", 13).get_attribute("aria-label")
    assert events(page) == []


def test_click_checker_then_highlighted_destination(page: Any) -> None:
    # White's checker on the bar enters with the 4 on White's 21
    hit(page, "bg-bar", '[data-key="bar"]').click()
    assert point(page, "bg-bar", 21).get_attribute("class").split().count("is-target") == 1
    assert "is-target" in point(page, "bg-bar", 24).get_attribute("class")
    point(page, "bg-bar", 21).click()
    assert events(page) == [
        {"sample": "bg-bar", "action": {"type": "move", "from": 25, "to": 21, "die": 4}}
    ]

    # long nardy: 24/18 with the 6
    point(page, "ln-mid", 24).click()
    point(page, "ln-mid", 18).click()
    assert events(page)[-1] == {
        "sample": "ln-mid", "action": {"type": "move", "from": 24, "to": 18, "die": 6},
    }  # fmt: skip


def test_bearing_off_onto_the_tray_takes_the_first_legal_die(page: Any) -> None:
    point(page, "bg-bearoff", 3).click()
    tray = hit(page, "bg-bearoff", '[data-key="offW"]')
    assert "is-target" in tray.get_attribute("class")
    tray.click()
    assert events(page) == [
        {"sample": "bg-bearoff", "action": {"type": "move", "from": 3, "to": 0, "die": 6}}
    ]


def test_black_view_sends_black_numbers(page: Any) -> None:
    # the viewer is Black: the rim shows Black's numbers, the action uses them too
    point(page, "pk-mid", 11).click()
    point(page, "pk-mid", 5).click()
    assert events(page) == [
        {"sample": "pk-mid", "action": {"type": "move", "from": 11, "to": 5, "die": 6}}
    ]


def test_drag_and_drop(page: Any) -> None:
    drag(page, point(page, "sn-mid", 13), point(page, "sn-mid", 8))
    assert events(page) == [
        {"sample": "sn-mid", "action": {"type": "move", "from": 13, "to": 8, "die": 5}}
    ]
    # Russian backgammon: a checker not yet entered is dragged in from beside the board
    drag(page, hit(page, "rb-mid", '[data-key="newW"]'), point(page, "rb-mid", 22))
    assert events(page)[-1] == {
        "sample": "rb-mid", "action": {"type": "move", "from": 25, "to": 22, "die": 3},
    }  # fmt: skip


def test_drop_elsewhere_snaps_back_and_sends_nothing(page: Any) -> None:
    drag(page, point(page, "sn-mid", 13), point(page, "sn-mid", 2))
    assert events(page) == []
    assert hit(page, "sn-mid", ".is-lifted").count() == 0
    assert hit(page, "sn-mid", ".sb-ghost").count() == 0
    assert hit(page, "sn-mid", ".is-target").count() == 0


def test_illegal_clicks_record_nothing(page: Any) -> None:
    point(page, "bg-bar", 6).click()  # White has checkers there, but must enter first
    assert hit(page, "bg-bar", ".is-target").count() == 0
    point(page, "bg-bar", 2).click()
    hit(page, "bg-bar", '[data-key="bar"]').click()
    point(page, "bg-bar", 20).click()  # not a destination: clears the selection
    assert hit(page, "bg-bar", ".is-target").count() == 0
    point(page, "bg-finished", 19).click()  # a spectator of a finished game
    assert hit(page, "bg-finished", '[data-key="dice"]').count() == 0
    point(page, "sn-start", 13).click()
    assert events(page) == []


def test_escape_and_clicking_elsewhere_clear_the_selection(page: Any) -> None:
    point(page, "ln-mid", 24).click()
    assert hit(page, "ln-mid", ".is-target").count() == 2
    page.keyboard.press("Escape")
    assert hit(page, "ln-mid", ".is-target").count() == 0
    point(page, "ln-mid", 24).click()
    page.locator("h1").click()
    assert hit(page, "ln-mid", ".is-target").count() == 0
    assert events(page) == []


def test_clicking_the_dice_rolls(page: Any) -> None:
    hit(page, "bg-start", '[data-key="dice"]').click()
    assert events(page) == [{"sample": "bg-start", "action": {"type": "roll"}}]


def test_keyboard_tab_and_enter(page: Any) -> None:
    # the board before (ln-start) ends with its dice; Tab goes on to ln-mid's point 24
    hit(page, "ln-start", '[data-key="dice"]').focus()
    page.keyboard.press("Tab")
    focused = "document.activeElement.getAttribute('data-point')"
    assert page.evaluate(focused) == "24"
    page.keyboard.press("Enter")
    assert point(page, "ln-mid", 24).get_attribute("aria-pressed") == "true"
    for _ in range(6):  # 23, 22, … 18 in the route's order
        page.keyboard.press("Tab")
    assert page.evaluate(focused) == "18"
    assert "is-target" in point(page, "ln-mid", 18).get_attribute("class")
    page.keyboard.press("Enter")
    assert events(page) == [
        {"sample": "ln-mid", "action": {"type": "move", "from": 24, "to": 18, "die": 6}}
    ]
    # arrows follow the picture: left of point 18 (top row) is 17, below that is 8
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == "17"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == "8"
    page.keyboard.press(" ")
    assert events(page)[-1]["sample"] == "ln-mid" and len(events(page)) == 1


def test_draughts_click_a_multi_capture(page: Any) -> None:
    square(page, "dr-capture", 32).click()
    assert "is-target" in square(page, "dr-capture", 14).get_attribute("class")
    square(page, "dr-capture", 14).click()
    assert events(page) == [
        {"sample": "dr-capture", "action": {"type": "move", "text": "32x23x14"}}
    ]


def test_draughts_capture_routes_with_the_same_ends(page: Any) -> None:
    # 47x20x3x17 and 47x24x8x17: the route's next square decides …
    square(page, "dr-routes", 47).click()
    square(page, "dr-routes", 17).click()
    assert events(page) == []
    assert hit(page, "dr-routes", ".sb-chooser button[data-move]").count() == 2
    square(page, "dr-routes", 24).click()
    assert events(page) == [
        {"sample": "dr-routes", "action": {"type": "move", "text": "47x24x8x17"}}
    ]
    # … or the chooser does
    square(page, "dr-routes", 47).click()
    square(page, "dr-routes", 21).click()
    hit(page, "dr-routes", '.sb-chooser button[data-move="47x20x3x21"]').click()
    assert events(page)[-1] == {
        "sample": "dr-routes", "action": {"type": "move", "text": "47x20x3x21"},
    }  # fmt: skip
    assert hit(page, "dr-routes", ".sb-chooser").count() == 0


def test_draughts_drag_keyboard_and_black_view(page: Any) -> None:
    drag(page, square(page, "dr-start", 32), square(page, "dr-start", 28))
    assert events(page) == [{"sample": "dr-start", "action": {"type": "move", "text": "32-28"}}]
    drag(page, square(page, "dr-start", 33), square(page, "dr-start", 24))  # not legal
    assert len(events(page)) == 1
    # Black sits at the bottom: White's left-hand corner square 46 is at Black's top right,
    # Black's own left-hand corner square 5 at his bottom left (DR-1)
    box46 = square(page, "dr-black", 46).bounding_box()
    box5 = square(page, "dr-black", 5).bounding_box()
    assert box46["y"] < box5["y"] and box46["x"] > box5["x"]
    square(page, "dr-black", 46).focus()
    page.keyboard.press("Enter")
    square(page, "dr-black", 19).focus()
    page.keyboard.press("Enter")
    assert events(page)[-1] == {"sample": "dr-black", "action": {"type": "move", "text": "46x19"}}
    # the last move is shown on its squares
    assert hit(page, "dr-black", ".sb-last").count() == 2


def test_touch_drag_and_tap_on_a_phone(browser: Any, gallery_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        page = context.new_page()
        page.goto(gallery_url)
        page.wait_for_function("window.galleryReady === true", polling=100)
        cdp = context.new_cdp_session(page)
        source, target = point(page, "sn-mid", 13), point(page, "sn-mid", 8)
        source.scroll_into_view_if_needed()
        (x0, y0), (x1, y1) = centre(source), centre(target)
        touch = "Input.dispatchTouchEvent"
        cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for i in range(1, 11):
            at = {"x": x0 + (x1 - x0) * i / 10, "y": y0 + (y1 - y0) * i / 10}
            cdp.send(touch, {"type": "touchMove", "touchPoints": [at]})
        cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
        page.wait_for_function("window.boardEvents.length === 1", polling=100)
        point(page, "ln-mid", 24).tap()
        point(page, "ln-mid", 19).tap()
        assert events(page) == [
            {"sample": "sn-mid", "action": {"type": "move", "from": 13, "to": 8, "die": 5}},
            {"sample": "ln-mid", "action": {"type": "move", "from": 24, "to": 19, "die": 5}},
        ]
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1440, 900)])
def test_screenshots(browser: Any, gallery_url: str, width: int, height: int) -> None:
    context, page, errors = _open(browser, gallery_url, width, height)
    try:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"boards-{width}x{height}.png"), full_page=True)
        page.screenshot(path=str(SCREENSHOTS / f"boards-{width}x{height}-first-screen.png"))
        # no board is wider than the page
        overflow = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.sb-svg')]"
            ".map(s => s.getBoundingClientRect().right)) - document.documentElement.clientWidth"
        )
        assert overflow <= 0
    finally:
        context.close()
    assert errors == []


def test_right_to_left_page_does_not_mirror_the_board(browser: Any, gallery_url: str) -> None:
    context, page, errors = _open(browser, f"{gallery_url}?dir=rtl", 1440, 900)
    try:
        one = page.locator('[data-sample="bg-start"] [data-point="1"]').bounding_box()
        twelve = page.locator('[data-sample="bg-start"] [data-point="12"]').bounding_box()
        assert one["x"] > twelve["x"]  # point 1 stays bottom right
        SCREENSHOTS.mkdir(exist_ok=True)
        page.locator('[data-sample="bg-start"]').screenshot(path=str(SCREENSHOTS / "board-rtl.png"))
    finally:
        context.close()
    assert errors == []


def test_the_boards_count_pieces_and_checkers_in_their_languages_plural_forms(page: Any) -> None:
    """The draughts strips ("20 pieces", "1 king") and the race points' labels ("2 white
    checkers") take the form their number needs: Russian says 1 and 21 шашка, 2 шашки,
    5 шашек. Before, both boards chose between a "1 …" text and an "N …" one, which has
    no form for 21 in Russian."""
    strips = page.locator(".sb-draughts .sb-strip-info").all_text_contents()
    assert "20 pieces" in strips, strips
    assert all(text.endswith(("pieces", "piece", "kings", "king")) for text in strips), strips
    labels = page.locator(".sb-race [data-point]").evaluate_all(
        "els => els.map(el => el.getAttribute('aria-label') || '')"
    )
    assert any("2 white checkers" in label for label in labels), labels[:5]
    assert not any("1 white checkers" in label for label in labels)
    summaries = page.locator(".sb-draughts svg").evaluate_all(
        "els => els.map(el => el.getAttribute('aria-label') || '')"
    )
    assert any("White: 20 pieces, 0 kings." in text for text in summaries), summaries[:2]
    assert any(", 1 king." in text for text in summaries), summaries
    assert not any("1 kings" in text or "1 pieces" in text for text in summaries)
    races = page.locator(".sb-race svg").evaluate_all(
        "els => els.map(el => el.getAttribute('aria-label') || '')"
    )
    assert any("White: 167 pips, 0 borne off." in text for text in races), races[:2]
    forms = page.evaluate(
        """async () => {
          const i18n = await import("/static/js/i18n.js");
          const { trPlural } = await import("/static/js/board/words.js");
          const out = {};
          for (const lang of ["en", "ru"]) {
            await i18n.setLanguage(lang);
            out[lang] = [1, 2, 5, 21].map((n) => [
              trPlural("board.pieces_of", n, { n }), trPlural("board.kings_of", n, { n }),
              trPlural("board.white_checkers", n, { n }),
            ]);
          }
          await i18n.setLanguage("en");
          return out;
        }"""
    )
    assert forms["en"][0] == ["1 piece", "1 king", "1 white checker"]
    assert forms["en"][3] == ["21 pieces", "21 kings", "21 white checkers"]
    assert [row[0] for row in forms["ru"]] == ["1 шашка", "2 шашки", "5 шашек", "21 шашка"]
    assert [row[1] for row in forms["ru"]] == ["1 дамка", "2 дамки", "5 дамок", "21 дамка"]
    assert forms["ru"][2][2] == "5 белых шашек"
