"""A person challenges a club bot from the lobby form and the bot answers on the board.

Issue 7: bots play through the same server path as people; here the whole way
from the request form to the bot's reply in a real browser.
"""

from __future__ import annotations

import random

from test_club import PHONE, Visitor, act_once, wait_for_turn


def test_a_draughts_bot_accepts_a_challenge_and_answers_each_move(browser, live_club):
    ann = Visitor(browser, live_club).register("annbot")
    page = ann.page
    page.select_option("select[name=variant]", "draughts")
    options = page.locator("[data-testid=opponent] option")
    names = [options.nth(i).get_attribute("value") for i in range(options.count())]
    assert "Draughts_Easy" in names and "GnuBG_Expert" not in names  # only bots of this game
    page.select_option("[data-testid=opponent]", "Draughts_Easy")
    page.fill("input[name=stake]", "40")
    page.click("[data-testid=new-request] button[type=submit]")
    page.wait_for_url("**/#/game/*", timeout=15_000)
    page.wait_for_selector("[data-testid=board] svg")
    rng = random.Random(3)
    for _ in range(3):  # three moves of ours, each answered by the bot
        assert wait_for_turn([ann]) is ann
        act_once(ann, rng)
    assert wait_for_turn([ann]) is ann
    assert int(ann.room("v")) >= 6
    assert "Draughts_Easy" in page.inner_text("h1")
    ann.shot("bot-game-desktop")
    assert ann.errors == []
    ann.close()


def test_the_request_form_offers_bots_on_a_phone(browser, live_club):
    bob = Visitor(browser, live_club, PHONE).register("bobbot")
    page = bob.page
    page.select_option("select[name=variant]", "plakoto")
    page.select_option("[data-testid=opponent]", "Nardist_Easy")
    assert not page.locator("input[name=bots]").is_visible()  # a challenge needs no patience
    page.select_option("[data-testid=opponent]", "")
    assert page.locator("input[name=bots]").is_checked()
    bob.shot("lobby-bots-phone")
    assert bob.errors == []
    bob.close()
