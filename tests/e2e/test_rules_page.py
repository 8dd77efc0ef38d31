"""The rules at hand (issue 17): the club serves RULES.md as a page, and the rule that
decided a game links to it from the result card."""

from __future__ import annotations

import random

from club_client import Player
from test_club import PHONE, SHOTS, Visitor, act_once, wait_for_turn


def test_the_rules_page_shows_every_rule_and_marks_the_one_asked_for(browser, live_club):
    guest = Visitor(browser, live_club)
    try:
        guest.go("#/rules?rule=BG-12")
        rules = guest.page.locator("[data-testid=rules]")
        target = rules.locator("li#rule-BG-12")
        target.wait_for()
        assert "is-target" in (target.get_attribute("class") or "")
        assert target.inner_text().startswith("BG-12")
        assert target.is_visible() and target.bounding_box()["y"] < 900  # scrolled to it
        # every rule of the document has its anchor: a few from each part
        for rule in ("GEN-1", "BF-15", "LN-7", "PK-4", "CH-7", "DR-13", "PL-7", "BG-E2"):
            assert rules.locator(f"li#rule-{rule}").count() == 1, rule
        # rule IDs in the text link to their rule
        guest.page.locator("li#rule-BG-20 a.rule-ref", has_text="PL-7").first.click()
        guest.page.wait_for_url("**/#/rules?rule=PL-7")
        rules.locator("li#rule-PL-7.is-target").wait_for()
        # the worked examples' table and inline code survive as markup, not as text
        assert rules.locator("table th", has_text="illegal / why").count() == 1
        assert rules.locator("code", has_text="13/8/5").count() >= 1
        text = rules.inner_text()
        assert "**" not in text and "rules?rule=" not in text  # links are links, not their URL
        guest.go("#/rules?rule=XX-99")
        guest.page.locator("[data-testid=rules-missing]").wait_for()
        guest.page.set_viewport_size(PHONE)
        guest.go("#/rules?rule=PL-7")
        rules.locator("li#rule-PL-7.is-target").wait_for()
        width = guest.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width  # the page never scrolls sideways on a phone
        SHOTS.mkdir(exist_ok=True)
        guest.page.screenshot(path=str(SHOTS / "rules-phone.png"))
        assert guest.errors == []
    finally:
        guest.close()


def test_a_result_links_to_the_rule_that_decided_it_in_every_language(browser, live_club):
    ann = Visitor(browser, live_club).register("annrules")
    bob = Player(live_club, "bobrules").register()
    try:
        bob.offer(variant="draughts", stake=0)
        ann.go("#/")
        game_id = ann.accept_from("bobrules")
        watch = bob.watch(game_id)
        watch.until(lambda f: f["t"] == "snapshot")
        if not watch.my_turn:  # Ann moves first: one move of hers, then Bob resigns
            assert wait_for_turn([ann]) is ann
            act_once(ann, random.Random(1))
            watch.until(lambda f: f["t"] == "legal")
        assert watch.act({"type": "resign"})["t"] == "state"
        link = ann.page.locator("[data-testid=rule-link]")
        link.wait_for()
        rule = link.get_attribute("href").split("rule=")[1]
        link.click()
        ann.page.locator(f"li#rule-{rule}.is-target").wait_for()
        ann.page.select_option("select.language", "fa")
        ann.page.locator("[data-testid=rules-english]").wait_for()
        # the notice is drawn at once, the rules when their text has come: wait for both
        ann.page.locator(f"li#rule-{rule}.is-target").wait_for()
        assert ann.page.locator(f"li#rule-{rule}").count() == 1
        ann.page.screenshot(path=str(SHOTS / "rules-desktop-fa.png"))  # the view, not all 800 lines
        watch.close()
        assert ann.errors == []
    finally:
        bob.close()
        ann.close()
