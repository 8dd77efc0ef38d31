"""Every ``wait_for_function`` of the browser tests polls on a timer (``polling=``).

Playwright polls on animation frames unless told otherwise, and a page on a busy
machine may be given no frame for longer than the wait's timeout: the wait then fails
with nothing wrong on the page (CI timed out so once in the chouette room, with the
room already showing what the test waited for). This test needs no browser.
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).parent


def waits_without_polling(source: str) -> tuple[int, list[int]]:
    """How many ``….wait_for_function(…)`` calls ``source`` makes, and the lines of those
    that name no ``polling``."""
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "wait_for_function"
    ]
    bare = [n.lineno for n in calls if not any(k.arg == "polling" for k in n.keywords)]
    return len(calls), bare


def test_the_check_tells_a_timer_from_animation_frames() -> None:
    source = 'page.wait_for_function("() => ok")\npage.wait_for_function("() => ok", polling=100)\n'
    assert waits_without_polling(source) == (2, [1])


def test_every_wait_for_function_in_the_browser_tests_polls_on_a_timer() -> None:
    seen, bare = 0, []
    for path in sorted(HERE.glob("*.py")):
        count, lines = waits_without_polling(path.read_text(encoding="utf-8"))
        seen += count
        bare += [f"{path.name}:{line}" for line in lines]
    assert seen > 20  # the browser tests wait on pages in many places: they were all read
    assert bare == [], f"wait_for_function without polling= (animation frames): {bare}"
