"""The boards' motion, last-play marks and orientation in a real browser (issue 17), on the
dev gallery (static/dev/boards.html): a board is redrawn with a new state and the test
reads what it drew.

- Orientation: every race variant puts the viewer's point 1 bottom right, or bottom left
  with the home on the left (the field mirrored, its numbers still readable), and a flip
  shows the other seat's view; the draughts board turns round too (BF-4).
- Motion: the checkers that moved slide from where they stood (a hit one to the bar after
  its hitter), the board ends exactly as the state says, and every slide ends within its
  set duration; with ``prefers-reduced-motion: reduce`` nothing slides or tumbles.
- The last play stays marked (its from and to points) from ``state.last``.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_boards import _open, browser, gallery_url  # noqa: F401 (fixtures)

RACE = ["bg-start", "sn-mid", "tn-start", "cn-start", "pk-mid", "rb-mid", "ln-mid", "jq-mid"]
VW, VH = 928, 848  # the race board's viewBox (race-layout.js)


@pytest.fixture
def page(browser: Any, gallery_url: str) -> Any:  # noqa: F811
    context, page, errors = _open(browser, gallery_url, 1440, 900)
    yield page
    assert errors == []
    context.close()


@pytest.fixture
def calm_page(browser: Any, gallery_url: str) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": 1440, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(gallery_url)
    page.wait_for_function("window.galleryReady === true", polling=100)
    yield page
    context.close()


def redraw(page: Any, sample: str, **change: Any) -> None:
    """Redraw a gallery board: ``state`` fields merged into the sample's, other options as given."""
    page.evaluate(
        """([id, change]) => {
            const sample = window.samples[id];
            const { state = {}, ...options } = change;
            window.boards[id].update({ state: { ...sample.state, ...state }, legal: null,
                                       you: sample.you, ...options });
        }""",
        [sample, change],
    )


def box(page: Any, sample: str, selector: str) -> dict[str, float]:
    """A drawn element's box in viewBox units."""
    found: dict[str, float] = page.evaluate(
        """([id, selector]) => {
            const el = document.querySelector(`[data-sample="${id}"] ${selector}`);
            const b = el.getBBox();
            return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        }""",
        [sample, selector],
    )
    return found


def strip_colours(page: Any, sample: str) -> list[str]:
    """The colours of the two players' strips, top first."""
    found: list[str] = page.evaluate(
        """id => [...document.querySelectorAll(`[data-sample="${id}"] .sb-strip-disc`)]
            .map(d => d.classList.contains('sb-W') ? 'W' : 'B')""",
        sample,
    )
    return found


@pytest.mark.parametrize("sample", RACE)
def test_bf_4_home_bottom_right_or_left_and_a_flip_on_every_race_board(
    page: Any, sample: str
) -> None:
    one = box(page, sample, '[data-point="1"]')
    assert one["x"] > VW / 2 and one["y"] > VH / 2  # the viewer's home: bottom right
    number = box(page, sample, ".sb-number")  # the frame's first number is slot 1's
    assert number["x"] > VW / 2
    colours = strip_colours(page, sample)

    redraw(page, sample, mirror=True)
    one = box(page, sample, '[data-point="1"]')
    assert one["x"] < VW / 2 and one["y"] > VH / 2  # bottom left
    assert box(page, sample, ".sb-number")["x"] < VW / 2
    assert strip_colours(page, sample) == colours  # the same seat's view, mirrored

    redraw(page, sample, flip=True)
    assert strip_colours(page, sample) == colours[::-1]  # the other seat below


def test_the_draughts_board_turns_round(page: Any) -> None:
    sample = page.evaluate("Object.keys(window.samples).find(k => k.startsWith('dr'))")
    square_one = box(page, sample, '[data-square="1"]')
    colours = strip_colours(page, sample)
    redraw(page, sample, flip=True)
    turned = box(page, sample, '[data-square="1"]')
    assert (square_one["y"] < 400) != (turned["y"] < 400)
    assert strip_colours(page, sample) == colours[::-1]


# --- motion -----------------------------------------------------------------------------


def flights(page: Any, sample: str) -> dict[str, int]:
    found: dict[str, int] = page.evaluate(
        """id => {
            const root = document.querySelector(`[data-sample="${id}"] .sb-board`);
            return { flying: Number(root.dataset.flying), flown: Number(root.dataset.flown) };
        }""",
        sample,
    )
    return found


def landed(page: Any, sample: str) -> None:
    """Wait until nothing flies on the sample's board (a condition, not a time)."""
    page.wait_for_function(
        "id => document.querySelector(`[data-sample='${id}'] .sb-board`).dataset.flying === '0'",
        arg=sample,
        polling=100,
    )


def slides(page: Any) -> list[dict[str, float]]:
    """The running slides' timings (the flying copies' animations)."""
    found: list[dict[str, float]] = page.evaluate(
        """() => document.getAnimations()
            .filter(a => a.effect && a.effect.target && a.effect.target.closest('.sb-flying'))
            .map(a => ({ end: a.effect.getComputedTiming().endTime,
                         duration: a.effect.getTiming().duration,
                         delay: a.effect.getTiming().delay }))"""
    )
    return found


def checkers_at(page: Any, sample: str) -> dict[str, int]:
    """How many visible checkers each side has drawn per location (``W:p13`` → 4)."""
    found: dict[str, int] = page.evaluate(
        """id => {
            const counts = {};
            const card = document.querySelector(`[data-sample="${id}"]`);
            for (const el of card.querySelectorAll('.sb-pieces [data-at]')) {
                if (getComputedStyle(el).visibility === 'hidden') continue;
                const [side, place] = el.dataset.at.split(':');
                counts[`${side}:${place}`] = (counts[`${side}:${place}`] || 0) + 1;
            }
            return counts;
        }""",
        sample,
    )
    return found


def test_a_play_slides_its_checkers_and_a_hit_one_goes_to_the_bar(page: Any) -> None:
    """White plays 24/18*: the hitter slides, the hit checker flies to the bar after it,
    and the board ends as the new position says."""
    sample = "bg-start"
    before = "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,18,19x4"
    after = "B:W6x5,8x3,13x5,24,18:Bbar,1x2,12x5,17x3,19x4"
    redraw(page, sample, state={"position": before, "board": before, "phase": "roll"})
    start = flights(page, sample)
    redraw(page, sample, state={"position": after, "board": after, "phase": "roll"})
    now = flights(page, sample)
    assert now["flown"] == start["flown"] + 2 and now["flying"] == 2
    timings = slides(page)
    assert len(timings) == 2
    hitter, hit = sorted(timings, key=lambda t: t["delay"])
    assert hit["delay"] > hitter["delay"]  # the hit checker leaves after its hitter set off
    for timing in timings:
        assert timing["end"] == timing["delay"] + timing["duration"] and timing["end"] <= 1000
    landed(page, sample)
    assert slides(page) == []
    drawn = checkers_at(page, sample)
    assert drawn["W:p18"] == 1 and drawn["B:bar"] == 1 and drawn["W:p24"] == 1
    assert page.evaluate("document.querySelectorAll('.sb-flyer').length") == 0


def test_a_checker_borne_off_slides_into_the_tray(page: Any) -> None:
    sample = "bg-bearoff"
    before = "W:W1,2,3:B19x5,20x4,21x3,22x3"
    after = "W:W1,2:B19x5,20x4,21x3,22x3"
    redraw(page, sample, state={"position": before, "board": before})
    start = flights(page, sample)["flown"]
    redraw(page, sample, state={"position": after, "board": after})
    assert flights(page, sample)["flown"] == start + 1
    landed(page, sample)
    assert checkers_at(page, sample)["W:off"] == 13


def test_new_dice_tumble_in_and_reduced_motion_stills_everything(page: Any, calm_page: Any) -> None:
    sample = "bg-start"
    for view, moving in ((page, True), (calm_page, False)):
        redraw(view, sample, state={"dice": None, "phase": "roll"})
        redraw(view, sample, state={"dice": [5, 2], "phase": "move"})
        tumbling = view.evaluate(
            """id => document.getAnimations().filter(a => a.animationName === 'sb-tumble'
                && a.effect.target.closest(`[data-sample="${id}"]`)).length""",
            sample,
        )
        assert (tumbling > 0) is moving
        before = "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5"
        after = "W:W6x5,8x3,13x4,24x2,7:B1x2,12x5,17x3,19x5"
        redraw(view, sample, state={"position": before, "board": before})
        start = flights(view, sample)["flown"]
        redraw(view, sample, state={"position": after, "board": after})
        assert (flights(view, sample)["flown"] > start) is moving
        landed(view, sample)
        assert checkers_at(view, sample)["W:p7"] == 1  # the board is right either way


def test_the_last_play_is_marked_from_and_to(page: Any) -> None:
    sample = "bg-start"
    before = "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5"
    after = "B:W6x6,8x2,13x4,24x2,7:B1x2,12x5,17x3,19x5"  # 13/7 8/6
    redraw(
        page,
        sample,
        state={"position": after, "board": after, "last": {"side": "W", "before": before}},
    )
    marked = page.evaluate(
        """id => document.querySelector(`[data-sample="${id}"] .sb-board`).dataset.last""", sample
    )
    assert set(marked.split()) == {"p13", "p7", "p8", "p6"}
    froms = page.evaluate(
        """id => [...document.querySelectorAll(`[data-sample="${id}"] .sb-last-from`)]
            .map(p => p.dataset.last).sort()""",
        sample,
    )
    assert froms == ["p13", "p8"]
    redraw(page, sample, state={"last": None})
    assert (
        page.evaluate(
            """id => document.querySelectorAll(`[data-sample="${id}"] polygon.sb-last`).length""",
            sample,
        )
        == 0
    )


def test_a_draughts_capture_glides_along_its_path(page: Any, calm_page: Any) -> None:
    sample = page.evaluate("Object.keys(window.samples).find(k => k.startsWith('dr'))")
    flown = "id => Number(document.querySelector(`[data-sample='${id}'] .sb-board`).dataset.flown)"
    for view, moving in ((page, True), (calm_page, False)):
        redraw(view, sample, state={"position": "W:W32:B28,18", "moves": []})
        start = view.evaluate(flown, sample)
        redraw(view, sample, state={"position": "B:W23:B18", "moves": ["32x23"]})
        assert (view.evaluate(flown, sample) == start + 2) is moving  # the capturer, the fade
        landed(view, sample)
        pieces = view.evaluate(
            """id => [...document.querySelectorAll(`[data-sample='${id}'] .sb-pieces .sb-piece`)]
                .filter(p => getComputedStyle(p).visibility !== 'hidden').length""",
            sample,
        )
        assert pieces == 2  # the capturer on 23 and the man on 18; the taken one is gone


# --- phone: a fingertip is wider than a point ------------------------------------------------


@pytest.fixture
def phone(browser: Any, gallery_url: str) -> Any:  # noqa: F811
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(gallery_url)
    page.wait_for_function("window.galleryReady === true", polling=100)
    yield page
    context.close()


def test_a_tap_beside_a_checker_picks_it_and_its_destinations_are_44_px_buttons(phone: Any) -> None:
    """Issue 17, phone: on a 390 px screen a point is about 21 px wide. A tap on the empty
    point 4 means the movable checker on 3; its destination comes as a button at least
    44 px high and wide, and that button plays the move."""
    sample = "bg-bearoff"
    card = phone.locator(f'[data-sample="{sample}"]')
    card.scroll_into_view_if_needed()
    four = card.locator('[data-point="4"]').bounding_box()
    assert four["width"] < 44  # the point itself is too narrow for a finger
    phone.touchscreen.tap(four["x"] + four["width"] / 2, four["y"] + four["height"] - 10)
    buttons = card.locator("[data-testid=touch-targets] .sb-target-button")
    buttons.first.wait_for()
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    card.locator('[data-target="offW"]').tap()
    events = phone.evaluate("window.boardEvents")
    assert events[-1] == {
        "sample": sample,
        "action": {"type": "move", "from": 3, "to": 0, "die": 6},
    }
    assert card.locator("[data-testid=touch-targets]").count() == 0
