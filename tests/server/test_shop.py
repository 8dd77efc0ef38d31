"""The shop over real HTTP, on SQLite and PostgreSQL: a purchase is one balanced transfer,
buying twice or without the FUN changes nothing, two purchases racing for the last FUN
end with exactly one, only owned items can be worn, and every player has an avatar.
"""

from __future__ import annotations

import threading
import xml.etree.ElementTree as ET
from typing import Any

import httpx
import pytest
from club_client import Player
from me_socket import MeSocket

from sheshbesh.server.accounts.avatars import identicon

CROWN = "avatar:crown"
WALNUT = "theme:walnut"


def shop(player: Player) -> dict[str, Any]:
    response = player.get("/api/shop")
    assert response.status_code == 200, response.text
    return dict(response.json())


def prices(player: Player) -> dict[str, int]:
    return {item["id"]: item["price"] for item in shop(player)["items"] if not item["free"]}


def owned(player: Player) -> set[str]:
    return {item["id"] for item in shop(player)["items"] if item["owned"] and not item["free"]}


def purchases(player: Player) -> list[dict[str, Any]]:
    return [row for row in player.get("/api/me/ledger").json() if row["reason"] == "purchase"]


def purchase_notes(player: Player) -> list[dict[str, Any]]:
    notes = player.get("/api/notifications").json()["notes"]
    return [note["data"] for note in notes if note["kind"] == "purchase"]


def ledger_is_balanced(player: Player) -> bool:
    health = player.get("/healthz").json()
    return bool(health["ok"]) and health["ledger_total"] == 0


def buy(player: Player, item: str) -> httpx.Response:
    return player.post(f"/api/shop/{item}/buy")


def spend_until(player: Player, done: Any) -> None:
    """Buy the dearest affordable items, one at a time, until ``done(balance, unowned prices)``."""
    while True:
        balance = player.balance()
        left = {item: price for item, price in prices(player).items() if item not in owned(player)}
        if done(balance, left):
            return
        affordable = [item for item, price in left.items() if price <= balance]
        assert affordable, f"the catalogue cannot reach the state wanted from {balance} FUN"
        assert buy(player, max(affordable, key=left.__getitem__)).status_code == 201


def test_a_purchase_is_one_balanced_transfer_to_the_shop(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    before = ann.balance()
    price = prices(ann)[CROWN]

    response = buy(ann, CROWN)

    assert response.status_code == 201, response.text
    body = response.json()
    assert body["balance"] == before - price == ann.balance()
    assert body["purchase"]["item"] == CROWN and body["purchase"]["price"] == price
    [row] = purchases(ann)
    assert row["amount"] == -price and row["game"] is None
    assert ledger_is_balanced(ann)
    crown = next(item for item in shop(ann)["items"] if item["id"] == CROWN)
    assert crown["owned"] and not crown["equipped"]
    assert shop(ann)["balance"] == before - price
    assert purchase_notes(ann) == [{"item": CROWN, "price": price, "balance": before - price}]
    public = bob.get("/api/users/ann/items").json()
    assert [item["item"] for item in public["items"]] == [CROWN]
    assert bob.balance() == before  # nobody else paid


def test_buying_twice_is_refused_and_changes_nothing(new_player):
    ann = new_player("ann")
    assert buy(ann, WALNUT).status_code == 201
    balance, ledger = ann.balance(), ann.get("/api/me/ledger").json()

    again = buy(ann, WALNUT)

    assert again.status_code == 409 and again.json()["error"] == "already_owned"
    assert ann.balance() == balance and ann.get("/api/me/ledger").json() == ledger
    free = buy(ann, "theme:classic")
    assert free.status_code == 409 and free.json()["error"] == "already_owned"
    assert ledger_is_balanced(ann)


def test_buying_without_the_fun_is_refused_and_changes_nothing(new_player):
    ann = new_player("ann")
    spend_until(ann, lambda balance, left: any(price > balance for price in left.values()))
    balance, ledger, mine = ann.balance(), ann.get("/api/me/ledger").json(), owned(ann)
    notes = purchase_notes(ann)
    left = {i: p for i, p in prices(ann).items() if i not in mine}
    dear = next(item for item, price in left.items() if price > balance)

    response = buy(ann, dear)

    assert response.status_code == 409
    assert response.json()["error"] == "insufficient_funds"
    assert str(left[dear]) in response.json()["message"]
    assert ann.balance() == balance and ann.get("/api/me/ledger").json() == ledger
    assert owned(ann) == mine and purchase_notes(ann) == notes and ledger_is_balanced(ann)


def race(player: Player, items: list[str]) -> list[httpx.Response]:
    """Send one purchase per item at the same moment (one thread each)."""
    start = threading.Barrier(len(items))
    results: list[httpx.Response] = []

    def attempt(item: str) -> None:
        start.wait()
        results.append(buy(player, item))

    threads = [threading.Thread(target=attempt, args=(item,)) for item in items]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_purchases_racing_for_the_last_fun_exactly_one_wins(new_player):
    ann = new_player("ann")

    def two_fit_but_not_both(balance: int, left: dict[str, int]) -> bool:
        fits = sorted((p for p in left.values() if p <= balance), reverse=True)
        return len(fits) >= 2 and fits[0] + fits[1] > balance

    spend_until(ann, two_fit_but_not_both)
    balance, left = ann.balance(), {i: p for i, p in prices(ann).items() if i not in owned(ann)}
    pair = sorted((i for i, p in left.items() if p <= balance), key=left.__getitem__)[-2:]

    results = race(ann, pair)

    assert sorted(r.status_code for r in results) == [201, 409], [r.text for r in results]
    [won] = [r.json()["purchase"]["item"] for r in results if r.status_code == 201]
    [lost] = [r.json() for r in results if r.status_code == 409]
    assert lost["error"] == "insufficient_funds"
    assert ann.balance() == balance - left[won] >= 0
    assert won in owned(ann) and not set(pair) - {won} & owned(ann)
    assert ledger_is_balanced(ann)


def test_the_same_item_bought_twice_at_once_is_bought_once(new_player):
    ann = new_player("ann")
    before = ann.balance()

    results = race(ann, [CROWN, CROWN])

    assert sorted(r.status_code for r in results) == [201, 409], [r.text for r in results]
    assert [r.json()["error"] for r in results if r.status_code == 409] == ["already_owned"]
    assert ann.balance() == before - prices(ann)[CROWN] and len(purchases(ann)) == 1
    assert ledger_is_balanced(ann)


def test_only_owned_items_can_be_worn(new_player):
    ann = new_player("ann")
    refused = ann.post("/api/me/equip", {"avatar": CROWN})
    assert refused.status_code == 403 and refused.json()["error"] == "not_owned"
    wrong = ann.post("/api/me/equip", {"avatar": "theme:classic"})
    assert wrong.status_code == 422 and wrong.json()["error"] == "wrong_kind"
    unknown = ann.post("/api/me/equip", {"theme": "theme:plaid"})
    assert unknown.status_code == 404
    assert ann.post("/api/me/equip", {}).status_code == 422
    me = ann.get("/api/session").json()["me"]
    assert me["theme"] == "theme:classic" and me["avatar"] == ann.user["avatar"]


def test_a_worn_avatar_and_theme_show_everywhere(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    default_url = ann.user["avatar"]
    assert (
        default_url.startswith("/api/avatars/ann.svg?v=") and ann.user["theme"] == "theme:classic"
    )
    assert buy(ann, CROWN).status_code == 201 and buy(ann, WALNUT).status_code == 201

    worn = ann.post("/api/me/equip", {"avatar": CROWN, "theme": WALNUT})

    assert worn.status_code == 200, worn.text
    assert worn.json()["theme"] == WALNUT and worn.json()["avatar"] != default_url
    profile = bob.get("/api/users/ann").json()
    session = ann.get("/api/session").json()["me"]
    assert profile["avatar"] == session["avatar"] == worn.json()["avatar"]
    assert profile["theme"] == session["theme"] == WALNUT
    assert bob.get("/api/users/ann/items").json()["equipped"] == {"avatar": CROWN, "theme": WALNUT}
    picture = bob.get(profile["avatar"])
    assert picture.status_code == 200 and picture.text != identicon("ann")
    assert "#f5c518" in picture.text  # the crown's gold
    mine = {i["id"]: i for i in shop(ann)["items"]}
    assert mine[CROWN]["equipped"] and mine[WALNUT]["equipped"]
    assert not mine["avatar:default"]["equipped"]

    back = ann.post("/api/me/equip", {"avatar": None})

    assert back.json()["avatar"] == default_url and back.json()["theme"] == WALNUT
    assert bob.get(default_url).text == identicon("ann")


def test_equipping_repaints_the_players_other_tabs_and_a_refusal_tells_nothing(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    assert buy(ann, CROWN).status_code == 201
    with MeSocket(ann) as other_tab, MeSocket(bob) as someone_else:
        assert ann.post("/api/me/equip", {"theme": WALNUT}).status_code == 403  # not owned
        worn = ann.post("/api/me/equip", {"avatar": CROWN}).json()
        frame = other_tab.until("me")
        assert frame["d"] == worn and frame["d"]["theme"] == "theme:classic"
        assert [f for f in other_tab.frames if f["t"] == "me"] == [frame]  # none for the refusal
        assert someone_else.quiet("me") == []


def test_every_player_has_a_generated_avatar(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    first = ann.get("/api/avatars/ann.svg")
    assert first.status_code == 200
    assert first.headers["content-type"].startswith("image/svg+xml")
    assert "img-src 'self'" in first.headers["content-security-policy"]
    root = ET.fromstring(first.text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert bob.get("/api/avatars/ANN.svg").text == first.text == identicon("ann")
    assert bob.get("/api/avatars/bob.svg").text != first.text
    assert ann.get("/api/avatars/nobody.svg").status_code == 404


def test_avatars_are_cached_by_what_is_equipped(new_player):
    ann = new_player("ann")
    url = ann.user["avatar"]
    versioned = ann.get(url)
    assert "immutable" in versioned.headers["cache-control"]
    plain = ann.get("/api/avatars/ann.svg")
    assert "no-cache" in plain.headers["cache-control"]
    etag = plain.headers["etag"]
    assert ann.http.get("/api/avatars/ann.svg", headers={"If-None-Match": etag}).status_code == 304
    assert buy(ann, "avatar:die").status_code == 201
    assert ann.post("/api/me/equip", {"avatar": "avatar:die"}).status_code == 200
    changed = ann.http.get("/api/avatars/ann.svg", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_the_shop_window_for_a_guest_and_a_player(club, new_player):
    guest = httpx.get(club.base + "/api/shop").json()
    assert guest["balance"] is None and guest["equipped"] is None
    assert all(item["owned"] == item["free"] for item in guest["items"])
    kinds = {item["kind"] for item in guest["items"]}
    assert kinds == {"avatar", "theme"}
    ann = new_player("ann")
    window = shop(ann)
    assert window["balance"] == ann.balance()
    assert window["equipped"] == {"avatar": "avatar:default", "theme": "theme:classic"}
    for item in window["items"]:
        if item["kind"] == "avatar":
            picture = ann.get(item["image"])
            assert picture.status_code == 200 and "immutable" in picture.headers["cache-control"]
            ET.fromstring(picture.text)
        else:
            assert item["free"] or item["palette"]
    css = ann.get("/api/shop/themes.css")
    assert css.headers["content-type"].startswith("text/css") and ".sb-theme-walnut" in css.text
    assert ann.get("/api/shop/theme:walnut.svg").status_code == 404


@pytest.mark.parametrize("item", ["avatar:unicorn", "hat:crown", "x" * 300])
def test_an_unknown_item_is_not_found(new_player, item):
    ann = new_player("ann")
    balance = ann.balance()
    response = buy(ann, item)
    assert response.status_code == 404 and response.json()["error"] == "unknown_item"
    assert ann.balance() == balance


def test_a_guest_cannot_buy_or_equip_and_csrf_is_required(club, new_player):
    guest = new_player("guest1", register=False)
    assert buy(guest, CROWN).status_code == 401
    assert guest.post("/api/me/equip", {"avatar": None}).status_code == 401
    ann = new_player("ann")
    balance = ann.balance()
    forged = ann.http.post(f"/api/shop/{CROWN}/buy", headers={"X-CSRF-Token": ""})
    assert forged.status_code == 403 and forged.json()["error"] == "csrf"
    cookies = {"sid": ann.http.cookies["sid"]}
    cross_site = httpx.post(club.base + f"/api/shop/{CROWN}/buy", cookies=cookies)
    assert cross_site.status_code == 403
    assert ann.balance() == balance and owned(ann) == set()
    assert httpx.get(club.base + "/api/users/nobody/items").status_code == 404


def test_ones_own_purchase_is_noted_but_leaves_the_unread_count_alone(new_player):
    """Issue 17, item 4: a purchase is the buyer's own doing, so its note (the receipt in
    the list, and the new balance for his other tabs) is stored already read."""
    ann = new_player("ann")
    assert int(ann.get("/api/notifications/unread").json()["unread"]) == 0
    with MeSocket(ann) as socket:
        assert buy(ann, CROWN).status_code == 201
        pushed = socket.until("notification")["d"]
    assert pushed["kind"] == "purchase" and pushed["read"] is True and pushed["unread"] == 0
    assert int(ann.get("/api/notifications/unread").json()["unread"]) == 0
    assert ann.get("/api/session").json()["me"]["unread"] == 0
    notes = ann.get("/api/notifications").json()["notes"]
    assert [(note["kind"], note["read"]) for note in notes] == [("purchase", True)]
