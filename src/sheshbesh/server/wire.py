"""JSON text as the club sends it to sockets and between processes.

orjson writes and reads it several times faster than the standard library; a move
is written once for the bus and once per frame, and read by each process that
follows the game. The text is compact and UTF-8 (not ASCII-escaped), and keys
that are not strings (a seat number) are written as strings, as ``json`` would.
A client's frames are still read by :mod:`json` (``protocol.parse_client``),
whose errors the club words.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(data: Any) -> str:
    """
    >>> dumps({"seat": {0: "Ада"}, "dice": (6, 5), "cube": None})
    '{"seat":{"0":"Ада"},"dice":[6,5],"cube":null}'
    """
    return orjson.dumps(data, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)
