"""A player's room settings, kept with his account so they follow him to every device.

``home`` is where his home board is drawn on the race boards (``right``, as
BF-4 describes, or ``left``, as many players learnt the game); ``sound`` turns
the room's sounds on or off. The browser keeps a guest's choice itself.
``POST /api/me/preferences`` (in ``auth``) changes them; the change reaches the
player's other tabs as a ``me`` frame, like a new theme.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from sheshbesh.store.models import User

DEFAULTS: dict[str, Any] = {"home": "right", "sound": True}
HOMES = ("right", "left")


class Preferences(BaseModel):
    """A change of some settings; a name the club does not know, or null, is refused."""

    model_config = ConfigDict(extra="forbid", strict=True)
    home: Literal["right", "left"] | None = None
    sound: bool | None = None

    def given(self) -> dict[str, Any]:
        """The settings this change names (null counts as not named, and is refused)."""
        return {name: getattr(self, name) for name in self.model_fields_set}


def prefs_of(user: User) -> dict[str, Any]:
    """The player's settings, the defaults filled in (an odd stored value ignored)."""
    stored = user.prefs if isinstance(user.prefs, dict) else {}
    found = dict(DEFAULTS)
    for name, default in DEFAULTS.items():
        value = stored.get(name)
        if type(value) is type(default) and (name != "home" or value in HOMES):
            found[name] = value
    return found
