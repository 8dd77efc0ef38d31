"""Accounts over real HTTP: registration and its grant, sessions, CSRF, the login limit."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from club_client import PASSWORD, Player, RunningClub, at_once
from sqlalchemy import func, select

from sheshbesh.server.accounts.csrf import is_bound
from sheshbesh.server.settings import Settings
from sheshbesh.store.db import Database
from sheshbesh.store.models import KnownAddress, LoginAttempt


def test_registration_grants_100000_fun_and_logs_in(new_player):
    ann = new_player("Ann")
    me = ann.get("/api/me").json()
    assert me["username"] == "Ann" and me["balance"] == 100_000
    health = ann.get("/healthz").json()
    assert health["ok"] is True and health["ledger_total"] == 0
    ledger = ann.get("/api/me/ledger").json()
    assert [(row["reason"], row["amount"]) for row in ledger] == [("grant", 100_000)]


def test_session_cookie_is_httponly_and_samesite(club):
    player = Player(club.base, "cookie")
    response = player.post("/api/register", {"username": "cookie", "password": PASSWORD})
    cookie = next(h for h in response.headers.get_list("set-cookie") if h.startswith("sid="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    player.close()


@pytest.mark.parametrize(
    "name",
    ["ann'; DROP TABLE users;--", "<script>alert(1)</script>", "a b", "ab", "x" * 21, "1abc",
     "admin", "ann\u0000"],
)  # fmt: skip
def test_usernames_with_sql_or_html_are_refused_and_nothing_is_created(club, name):
    player = Player(club.base, "x")
    response = player.post("/api/register", {"username": name, "password": PASSWORD})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_username"
    assert player.get("/healthz").json()["ledger_total"] == 0
    assert player.get("/api/users/ann").status_code == 404
    player.close()


def test_a_taken_username_is_refused_whatever_its_case(new_player, club):
    new_player("ann")
    twin = Player(club.base, "ANN")
    response = twin.post("/api/register", {"username": "ANN", "password": PASSWORD})
    assert response.status_code == 409 and response.json()["error"] == "username_taken"
    twin.close()


def test_short_passwords_are_refused(club):
    player = Player(club.base, "shorty")
    response = player.post("/api/register", {"username": "shorty", "password": "1234567"})
    assert response.status_code == 422 and response.json()["error"] == "invalid_password"
    player.close()


def test_login_logout_and_a_stale_session(new_player, club):
    new_player("ann")
    browser = Player(club.base, "ann")
    assert browser.get("/api/me").status_code == 401
    logged = browser.post("/api/login", {"username": "ann", "password": PASSWORD})
    assert logged.status_code == 200 and logged.json()["balance"] == 100_000
    stolen = dict(browser.http.cookies.items())
    assert browser.post("/api/logout").status_code == 200
    assert browser.get("/api/me").status_code == 401
    # The old cookie is dead on the server, not just forgotten by the browser.
    replay = httpx.get(club.base + "/api/me", cookies={"sid": stolen["sid"]})
    assert replay.status_code == 401 and replay.json()["error"] == "login_required"
    browser.close()


def test_wrong_passwords_are_rate_limited_per_account(new_player, club):
    new_player("ann")
    thief = Player(club.base, "thief")
    codes = [
        thief.post("/api/login", {"username": "ann", "password": f"guess-{n}-xx"}).status_code
        for n in range(7)
    ]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]
    limited = thief.post("/api/login", {"username": "ann", "password": PASSWORD})
    assert limited.status_code == 429  # even the right password waits out the window
    assert int(limited.headers["retry-after"]) > 0
    thief.close()


def test_wrong_passwords_sent_at_once_are_limited_as_if_one_by_one(new_player, club):
    """Guesses sent at the same moment each count before their password is checked: five
    are answered and the rest refused, as one at a time. (Counted after the check, all
    twenty passed it before any was stored, and all twenty were answered.)"""
    new_player("ann")
    thieves = [Player(club.base, f"thief{n}", address="127.0.0.2") for n in range(20)]
    guesses = [
        lambda thief=thief, n=n: (
            thief.post("/api/login", {"username": "ann", "password": f"guess-{n}-xx"}).status_code
        )
        for n, thief in enumerate(thieves)
    ]
    codes = at_once(guesses)
    assert sorted(codes) == [401] * 5 + [429] * 15
    for thief in thieves:
        thief.close()


def test_new_passwords_sent_at_once_are_limited_as_if_one_by_one(new_player, club):
    """The same for a password change: a session's own wrong guesses, sent together."""
    ann = new_player("ann")
    changes = [
        lambda n=n: (
            ann.post(
                "/api/me/password", {"current": f"guess-{n}-xx", "new": NEW_PASSWORD}
            ).status_code
        )
        for n in range(12)
    ]
    assert sorted(at_once(changes)) == [403] * 5 + [429] * 7


def test_a_right_password_withdraws_its_attempt(new_player, club):
    """An attempt counts as a wrong password only until its password proves right: a
    stranger's address logging in six times with the right one is never refused."""
    new_player("ann")
    for _ in range(6):
        browser = Player(club.base, "ann", address="127.0.0.2")
        assert (
            browser.post("/api/login", {"username": "ann", "password": PASSWORD}).status_code == 200
        )
        browser.close()


LONE = "\\ud800"
"""A lone surrogate as JSON writes it: the standard library reads it, no database stores it."""


@pytest.mark.parametrize("bad", [LONE, "NaN"])
def test_json_no_database_can_store_is_refused_before_any_route(new_player, club, bad):
    """A body the standard library parses but the database cannot encode was a 500, and
    at a password change it counted as a wrong password each time (the sixth try, and
    the right password after it, got 429): now 422 on every route, nothing counted."""
    ann = new_player("ann")
    text = f'"abc{bad}defgh"' if bad == LONE else bad
    bodies = {
        "/api/register": f'{{"username": "carol", "password": {text}}}',
        "/api/login": f'{{"username": "ann", "password": {text}}}',
        "/api/me/password": f'{{"current": "{PASSWORD}", "new": {text}}}',
    }
    for path, body in bodies.items():
        for _ in range(6):
            refused = ann.http.post(
                path, content=body.encode(), headers={"content-type": "application/json"}
            )
            assert refused.status_code == 422, (path, refused.text)
            assert refused.json()["error"] == "invalid_request"
    changed = ann.post("/api/me/password", {"current": PASSWORD, "new": NEW_PASSWORD})
    assert changed.status_code == 200
    assert log_in(club.base, "ann", NEW_PASSWORD).status_code == 200


def test_a_strangers_wrong_passwords_never_lock_the_owner_out(new_player, club):
    """Issue 16, item 9: five wrong passwords from elsewhere lock the name for strangers
    only; the owner's known address, his session and his password change get through."""
    ann = new_player("ann")  # registered from 127.0.0.1: a known address
    thief = Player(club.base, "thief", address="127.0.0.2")
    codes = [
        thief.post("/api/login", {"username": "ann", "password": f"guess-{n}-xx"}).status_code
        for n in range(6)
    ]
    assert codes == [401] * 5 + [429]
    accomplice = Player(club.base, "accomplice", address="127.0.0.3")
    locked = accomplice.post("/api/login", {"username": "ann", "password": PASSWORD})
    assert locked.status_code == 429, "a stranger waits, even with the right password"
    assert int(locked.headers["retry-after"]) > 0
    assert log_in(club.base, "ann", PASSWORD).status_code == 200  # from her known address
    travelling = Player(club.base, "ann", address="127.0.0.4")  # new address, her session
    travelling.http.cookies.update(ann.http.cookies)
    travelling.http.headers["X-CSRF-Token"] = ann.http.headers["X-CSRF-Token"]
    again = travelling.post("/api/login", {"username": "ann", "password": PASSWORD})
    assert again.status_code == 200 and again.json()["username"] == "ann"
    changed = ann.post("/api/me/password", {"current": PASSWORD, "new": NEW_PASSWORD})
    assert changed.status_code == 200 and changed.json()["ok"] is True
    assert (
        thief.post("/api/login", {"username": "ann", "password": NEW_PASSWORD}).status_code == 429
    )
    for player in (thief, accomplice, travelling):
        player.close()


def test_one_address_cannot_guess_across_accounts(new_player, club):
    """30 wrong passwords from one address, whatever the names: it is refused whatever it asks."""
    new_player("ann")
    guesser = Player(club.base, "guesser", address="127.0.0.5")
    codes = [
        guesser.post(
            "/api/login", {"username": f"name{n % 7}", "password": "wrong-guess"}
        ).status_code
        for n in range(30)
    ]
    assert codes == [401] * 30
    refused = guesser.post("/api/login", {"username": "ann", "password": PASSWORD})
    assert refused.status_code == 429 and "your address" in refused.json()["message"]
    assert log_in(club.base, "ann", PASSWORD).status_code == 200  # other addresses are not
    guesser.close()


def test_old_failures_are_pruned(club_settings):
    """Each stored failure deletes those older than the window: the table stays small."""
    clock = Clock()
    with RunningClub(club_settings, now=clock) as running:
        thief = Player(running.base, "thief")
        for n in range(5):
            thief.post("/api/login", {"username": f"victim{n}", "password": "wrong-guess"})
        assert stored_failures(club_settings.database_url) == 5
        clock.t += club_settings.login_window + 1
        thief.post("/api/login", {"username": "victim0", "password": "wrong-guess"})
        assert stored_failures(club_settings.database_url) == 1
        thief.close()


def test_addresses_unused_for_180_days_are_forgotten_at_the_next_login(club_settings):
    """Each login forgets the account's addresses it has not logged in from for 180 days
    (the known-address table grew for ever)."""
    clock = Clock()
    with RunningClub(club_settings, now=clock) as running:
        Player(running.base, "ann").register().close()  # from 127.0.0.1
        away = Player(running.base, "ann", address="127.0.0.2")
        assert away.post("/api/login", {"username": "ann", "password": PASSWORD}).is_success
        away.close()
        assert known_addresses(club_settings.database_url) == ["127.0.0.1", "127.0.0.2"]
        clock.t += 179 * 86_400  # 127.0.0.1 is used again; 127.0.0.2 is not
        assert log_in(running.base, "ann", PASSWORD).status_code == 200
        clock.t += 2 * 86_400
        assert log_in(running.base, "ann", PASSWORD).status_code == 200
        assert known_addresses(club_settings.database_url) == ["127.0.0.1"]


def known_addresses(url: str) -> list[str]:
    async def read() -> list[str]:
        db = Database(url)
        try:
            async with db.read() as session:
                found = await session.scalars(select(KnownAddress.address))
                return sorted(found)
        finally:
            await db.close()

    return asyncio.run(read())


def stored_failures(url: str) -> int:
    async def count() -> int:
        db = Database(url)
        try:
            async with db.read() as session:
                return int(
                    await session.scalar(select(func.count()).select_from(LoginAttempt)) or 0
                )
        finally:
            await db.close()

    return asyncio.run(count())


class Clock:
    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


def test_state_changing_requests_need_the_csrf_token(club):
    bare = httpx.Client(base_url=club.base)
    response = bare.post("/api/register", json={"username": "mallory", "password": PASSWORD})
    assert response.status_code == 403 and response.json()["error"] == "csrf"
    token = bare.get("/api/csrf").json()["token"]
    wrong = bare.post(
        "/api/register",
        json={"username": "mallory", "password": PASSWORD},
        headers={"X-CSRF-Token": token + "x"},
    )
    assert wrong.status_code == 403
    checker = Player(club.base, "checker")
    assert checker.get("/api/users/mallory").status_code == 404  # nothing was created
    checker.close()
    bare.close()


# --- CSRF bound to the session (issue 16, item 12) --------------------------------------


def test_a_csrf_token_someone_else_chose_is_refused(new_player, club):
    """A cookie and header planted by an attacker, or taken from another session, match
    each other but not the victim's session: refused, and nothing changes."""
    ann, bob = new_player("ann"), new_player("bob")
    sid = ann.http.cookies["sid"]
    planted = "p" * 40
    for csrf in (planted, bob.http.cookies["csrf"]):
        forged = httpx.Client(base_url=club.base, cookies={"sid": sid, "csrf": csrf},
                              headers={"X-CSRF-Token": csrf})  # fmt: skip
        response = forged.post("/api/me/password", json={"current": PASSWORD, "new": NEW_PASSWORD})
        assert response.status_code == 403 and response.json()["error"] == "csrf"
        forged.close()
    assert log_in(club.base, "ann", PASSWORD).status_code == 200
    assert ann.post("/api/chat/lobby", {"text": "still me"}).status_code == 201


def test_a_login_and_a_logout_bring_a_new_token(new_player, club):
    """The session changes, so the token does: the old one is refused, the new one (set as
    the cookie on the same response, as the page reads it) works."""
    new_player("ann")
    browser = Player(club.base, "ann")
    guest_token = browser.http.headers["X-CSRF-Token"]
    logged = browser.post("/api/login", {"username": "ann", "password": PASSWORD})
    assert logged.status_code == 200 and "csrf" in logged.cookies
    token = logged.cookies["csrf"]
    assert token != guest_token and browser.http.headers["X-CSRF-Token"] == token
    stale = browser.http.post("/api/chat/lobby", json={"text": "hi"},
                              headers={"X-CSRF-Token": guest_token})  # fmt: skip
    assert stale.status_code == 403 and stale.json()["error"] == "csrf"
    assert browser.post("/api/chat/lobby", {"text": "hi"}).status_code == 201
    out = browser.post("/api/logout")
    assert out.status_code == 200 and out.cookies["csrf"] not in (token, guest_token)
    again = browser.http.post("/api/login", json={"username": "ann", "password": PASSWORD},
                              headers={"X-CSRF-Token": token})  # fmt: skip
    assert again.status_code == 403
    assert browser.post("/api/login", {"username": "ann", "password": PASSWORD}).status_code == 200
    browser.close()


def test_every_process_signs_with_the_same_secret(club_settings, monkeypatch):
    """Without SHESHBESH_SECRET the club keeps one in its database, so a token from one
    process works on another; with it, that is the key."""
    with RunningClub(club_settings) as one, RunningClub(club_settings) as two:
        ann = Player(one.base, "ann").register()
        ann.base = two.base
        ann.http.base_url = httpx.URL(two.base)
        assert ann.post("/api/chat/lobby", {"text": "from two"}).status_code == 201
        ann.close()
    monkeypatch.setenv("SHESHBESH_SECRET", "a secret every process is given")
    configured = Settings.from_env(database_url=club_settings.database_url,
                                   password_profile="fast")  # fmt: skip
    assert configured.secret == "a secret every process is given"
    with RunningClub(configured) as three:
        bob = Player(three.base, "bob").register()
        token, sid = bob.http.cookies["csrf"], bob.http.cookies["sid"]
        assert is_bound(configured.secret, sid, token)
        assert bob.post("/api/chat/lobby", {"text": "signed"}).status_code == 201
        bob.close()


def test_openapi_and_health(club):
    schema = httpx.get(club.base + "/openapi.json").json()
    for path in ("/api/register", "/api/requests", "/api/requests/{request_id}/accept",
                 "/api/games/live", "/healthz"):  # fmt: skip
        assert path in schema["paths"]
    assert httpx.get(club.base + "/healthz").json()["ok"] is True


def test_profile_shows_results_and_hides_the_balance_from_others(new_player):
    ann, bob = new_player("ann"), new_player("bob")
    own = ann.get("/api/users/ann").json()
    assert own["balance"] == 100_000 and own["played"] == 0
    seen = bob.get("/api/users/ANN").json()
    assert seen["username"] == "ann" and "balance" not in seen


# --- changing the password --------------------------------------------------------------

NEW_PASSWORD = "a longer new secret"


def log_in(base: str, name: str, password: str) -> httpx.Response:
    browser = Player(base, name)
    try:
        return browser.post("/api/login", {"username": name, "password": password})
    finally:
        browser.close()


def test_a_new_password_ends_every_other_session_and_keeps_this_one(new_player, club):
    ann = new_player("ann")
    elsewhere = Player(club.base, "ann")
    assert elsewhere.post("/api/login", {"username": "ann", "password": PASSWORD}).is_success
    changed = ann.post("/api/me/password", {"current": PASSWORD, "new": NEW_PASSWORD})
    assert changed.status_code == 200 and changed.json() == {"ok": True, "sessions_ended": 1}
    assert ann.get("/api/me").status_code == 200
    assert elsewhere.get("/api/me").status_code == 401
    assert log_in(club.base, "ann", PASSWORD).status_code == 401
    assert log_in(club.base, "ann", NEW_PASSWORD).status_code == 200
    elsewhere.close()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"current": "not my password", "new": NEW_PASSWORD}, 403, "wrong_password"),
        ({"current": PASSWORD, "new": "short"}, 422, "invalid_password"),
        ({"current": PASSWORD, "new": "x" * 257}, 422, "invalid_password"),
        ({"current": PASSWORD}, 422, "invalid_request"),
        ({"current": PASSWORD, "new": 12345678}, 422, "invalid_request"),
    ],
)
def test_a_refused_password_change_changes_nothing(new_player, club, body, status, code):
    ann = new_player("ann")
    refused = ann.post("/api/me/password", body)
    assert refused.status_code == status and refused.json()["error"] == code, refused.text
    assert ann.get("/api/me").status_code == 200
    assert log_in(club.base, "ann", PASSWORD).status_code == 200


def test_a_guest_or_a_forged_request_cannot_change_a_password(new_player, club):
    ann = new_player("ann")
    guest = Player(club.base, "guest")
    assert (
        guest.post("/api/me/password", {"current": PASSWORD, "new": NEW_PASSWORD}).status_code
        == 401
    )
    guest.close()
    forged = httpx.Client(base_url=club.base, cookies=dict(ann.http.cookies))
    response = forged.post("/api/me/password", json={"current": PASSWORD, "new": NEW_PASSWORD})
    assert response.status_code == 403 and response.json()["error"] == "csrf"
    forged.close()
    assert log_in(club.base, "ann", PASSWORD).status_code == 200


def test_wrong_current_passwords_count_with_wrong_logins(new_player, club):
    ann = new_player("ann")
    codes = [
        ann.post("/api/me/password", {"current": f"guess-{n}-xx", "new": NEW_PASSWORD}).status_code
        for n in range(6)
    ]
    assert codes == [403] * 5 + [429]
    assert log_in(club.base, "ann", PASSWORD).status_code == 429
