"""The shop: avatars and board themes bought with FUN, and which of them a player wears.

A purchase is one transaction: a balanced ledger transfer (reason ``purchase``,
from the buyer's wallet to the system account ``shop``), the ``purchases`` row
and the buyer's notification, stored read (his own doing raises no unread count)
and pushed after the commit. Two guards make the hard cases exact on SQLite and
PostgreSQL alike (DESIGN principle 4):

* the ledger's guarded ``UPDATE`` never takes a wallet below zero: of two
  purchases racing for the last FUN, the second waits for the first's row lock
  (PostgreSQL) or write lock (SQLite), then finds the money gone and gets
  ``insufficient_funds`` with nothing written;
* the unique (user, item) pair refuses a second copy, even when two requests
  for one item arrive at once (``already_owned``).

The free defaults (the generated avatar, the classic theme) belong to everyone
and are never bought; equipping one stores None on the user.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from sheshbesh.server.accounts.avatars import ART, avatar_url, picture, svg_response
from sheshbesh.server.accounts.items import (
    CATALOGUE,
    KINDS,
    Item,
    Kind,
    default_of,
    find_item,
    theme_css,
)
from sheshbesh.server.accounts.sessions import me_json, require_user, user_of
from sheshbesh.server.club import club_of
from sheshbesh.server.errors import ApiError, Conflict, Forbidden, NotFound
from sheshbesh.server.notify import notes as notify
from sheshbesh.store import ledger
from sheshbesh.store.ledger import InsufficientFunds
from sheshbesh.store.models import Purchase, User, user_named

router = APIRouter(prefix="/api", tags=["shop"])

SHOP_ACCOUNT = "shop"
"""The system account that receives what players pay."""

PREVIEW_NAME = re.compile(r"[A-Za-z0-9_-]{1,20}")


class Equip(BaseModel):
    """What to wear: an owned item's id, or null (or the default's id) for the default."""

    model_config = ConfigDict(extra="forbid")

    avatar: str | None = Field(default=None, max_length=40)
    theme: str | None = Field(default=None, max_length=40)


def find(item_id: str) -> Item:
    item = find_item(item_id)
    if item is None:
        raise NotFound(f"the shop has no item {item_id[:40]!r}", code="unknown_item")
    return item


def equipped_of(user: User) -> dict[str, str]:
    """The ids of what ``user`` wears, the free defaults included."""
    return {
        "avatar": user.avatar or default_of("avatar"),
        "theme": user.theme or default_of("theme"),
    }


async def owned_by(session: AsyncSession, user_id: int) -> dict[str, Purchase]:
    """The user's purchases by item id (the free defaults are not rows)."""
    rows = await session.scalars(
        select(Purchase).where(Purchase.user_id == user_id).order_by(Purchase.created_at)
    )
    return {row.item: row for row in rows}


def preview_url(item: Item, name: str | None) -> str | None:
    """The picture of an avatar item; the generated one is drawn for ``name`` (the viewer)."""
    if item.kind != "avatar":
        return None
    name = name or "sheshbesh"
    return f"/api/shop/{item.id}.svg?name={name}&v={_preview_version(item.id, name)}"


def _preview_version(item_id: str, name: str) -> str:
    return hashlib.sha256(f"{ART}|{item_id}|{name.lower()}".encode()).hexdigest()[:10]


def item_json(item: Item, *, owned: bool, equipped: bool, viewer: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": item.id, "kind": item.kind, "name": item.name, "price": item.price,
        "free": item.free, "owned": owned or item.free, "equipped": equipped,
    }  # fmt: skip
    if item.kind == "avatar":
        out["image"] = preview_url(item, viewer)
    else:
        out["palette"] = item.palette
    return out


def purchase_json(purchase: Purchase) -> dict[str, Any]:
    item = find_item(purchase.item)
    return {
        "item": purchase.item,
        "kind": item.kind if item else purchase.item.split(":", 1)[0],
        "name": item.name if item else purchase.item,
        "price": purchase.price,
        "bought_at": purchase.created_at,
    }


# --- routes -------------------------------------------------------------------------


@router.get("/shop")
async def catalogue(request: Request) -> dict[str, Any]:
    """Every item with its price and, for a logged-in viewer, owned/equipped and his balance."""
    club = club_of(request)
    viewer = await user_of(club, request)
    owned: dict[str, Purchase] = {}
    balance = None
    wearing: dict[str, str] = equipped_of(viewer) if viewer else {}
    if viewer is not None:
        async with club.db.read() as session:
            owned = await owned_by(session, viewer.id)
            balance = await ledger.balance_of(session, viewer.id)
    name = viewer.username if viewer else None
    items = [
        item_json(
            item, owned=item.id in owned, equipped=wearing.get(item.kind) == item.id, viewer=name
        )
        for item in CATALOGUE
    ]
    return {"balance": balance, "equipped": wearing or None, "items": items}


@router.get("/shop/themes.css", response_class=Response)
async def themes_stylesheet(request: Request) -> Response:
    """The board themes as CSS classes (``.sb-theme-walnut``), generated from the catalogue."""
    css = theme_css()
    version = hashlib.sha256(css.encode()).hexdigest()[:10]
    headers = {"ETag": f'"{version}"', "Cache-Control": "public, no-cache"}
    if f'"{version}"' in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(css, media_type="text/css", headers=headers)


@router.get("/shop/{item_id}.svg", response_class=Response)
async def item_picture(item_id: str, request: Request, name: str = "sheshbesh") -> Response:
    """An avatar item's picture for the shop window (the generated one drawn for ``name``)."""
    item = find(item_id)
    if item.kind != "avatar":
        raise NotFound(f"{item.id} has no picture", code="unknown_item")
    if not PREVIEW_NAME.fullmatch(name):
        name = "sheshbesh"
    body = picture(item.id, name)
    return svg_response(request, body, _preview_version(item.id, name))


@router.post("/shop/{item_id}/buy", status_code=201)
async def buy(item_id: str, request: Request) -> dict[str, Any]:
    """Buy an item: one balanced transfer to the shop, the purchase row and a notification."""
    club = club_of(request)
    user = await require_user(request)
    item = find(item_id)
    if item.free:
        raise Conflict(f"{item.name} is free and already yours", code="already_owned")
    now = club.now()
    try:
        async with club.db.transaction() as session:
            mine = select(Purchase.id).where(Purchase.user_id == user.id, Purchase.item == item.id)
            if await session.scalar(mine) is not None:
                raise Conflict(f"you already own {item.name}", code="already_owned")
            wallet = await ledger.wallet_of(session, user.id)
            shop = await ledger.system_account(session, SHOP_ACCOUNT)
            try:
                paid = await ledger.transfer(
                    session, "purchase", [(wallet, -item.price), (shop, item.price)], now=now
                )
            except InsufficientFunds as error:
                raise ApiError(
                    f"not enough FUN for {item.name}: it costs {item.price}"
                    f" and you have {error.account.balance}",
                    status=409,
                    code="insufficient_funds",
                ) from None
            assert paid is not None  # a price above zero always moves FUN
            purchase = Purchase(user_id=user.id, item=item.id, price=item.price,
                                transfer_id=paid, created_at=now)  # fmt: skip
            session.add(purchase)
            await session.flush()
            balance = wallet.balance
            data = {"item": item.id, "price": item.price, "balance": balance}
            note = await notify.add(session, now, user.id, "purchase", data, read=True)
    except IntegrityError:  # the same item bought at the same moment by another request
        raise Conflict(f"you already own {item.name}", code="already_owned") from None
    await notify.push(club, [note])
    return {"purchase": purchase_json(purchase), "balance": balance}


@router.post("/me/equip")
async def equip(body: Equip, request: Request) -> dict[str, Any]:
    """Wear an owned avatar and/or theme (null or the default's id: back to the default)."""
    club = club_of(request)
    user = await require_user(request)
    given = [kind for kind in KINDS if kind in body.model_fields_set]
    if not given:
        raise ApiError("say what to equip: avatar or theme", status=422, code="invalid_request")
    async with club.db.transaction() as session:
        me = await session.get(User, user.id)
        assert me is not None
        owned = await owned_by(session, user.id)
        for kind in given:
            setattr(me, kind, _wearable(kind, getattr(body, kind), owned))
        wearing = await me_json(club, session, me)
    # The player's other tabs repaint his header and boards from this frame.
    await club.bus.publish_data(f"user:{user.id}", {"t": "me", "d": wearing})
    return wearing


def _wearable(kind: Kind, item_id: str | None, owned: dict[str, Purchase]) -> str | None:
    """What to store for wearing ``item_id`` as ``kind`` (None: the default), or a refusal."""
    if item_id is None or item_id == default_of(kind):
        return None
    item = find(item_id)
    if item.kind != kind:
        raise ApiError(f"{item.id} is not an {kind}", status=422, code="wrong_kind")
    if item.id not in owned:
        raise Forbidden(f"buy {item.name} in the shop before wearing it", code="not_owned")
    return item.id


@router.get("/users/{username}/items")
async def items_of(username: str, request: Request) -> dict[str, Any]:
    """What a player owns and wears (public, like his profile)."""
    club = club_of(request)
    async with club.db.read() as session:
        user = await user_named(session, username)
        if user is None:
            raise NotFound(f"no player {username[:20]!r}")
        owned = await owned_by(session, user.id)
    return {
        "username": user.username,
        "avatar": avatar_url(user),
        "equipped": equipped_of(user),
        "items": [purchase_json(purchase) for purchase in owned.values()],
    }
