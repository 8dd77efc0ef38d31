"""The imports between the client's ES modules (``static/js`` and ``static/dev``).

The client has no build step, so nothing else reads these arrows before a browser does:

- every relative import names a module that exists;
- every name imported in braces (``import { keyAt } from "./geometry.js"``) is one the
  module exports, so a name moved to another module cannot be left imported from its
  old place;
- the imports point one way: no module reaches itself again through them (a circle
  works in a browser only while no module uses an import before it is evaluated).

Dynamic ``import("...")`` counts as an arrow too: it loads the same module graph later.
"""

from __future__ import annotations

import posixpath
import re

from sheshbesh import web

STATIC = web.STATIC

# import { a, b as c } from "./x.js";  import * as x from "./x.js";  import x from "./x.js";
# export { a } from "./x.js";  import "./x.js";  import("./x.js")
FROM = re.compile(
    r"""^\s*(?:import|export)\s+(?P<what>[^;'"]*?)\s*from\s*(?P<q>["'])(?P<path>[^"']+)(?P=q)""",
    re.MULTILINE | re.DOTALL,
)
BARE = re.compile(r"""^\s*import\s*(?P<q>["'])(?P<path>[^"']+)(?P=q)""", re.MULTILINE)
DYNAMIC = re.compile(r"""\bimport\(\s*(?P<q>["'])(?P<path>[^"']+)(?P=q)\s*\)""")
BRACES = re.compile(r"\{(?P<names>[^}]*)\}")
DECLARED = re.compile(
    r"^\s*export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+(?P<name>[\w$]+)",
    re.MULTILINE,
)
EXPORT_LIST = re.compile(r"^\s*export\s*\{(?P<names>[^}]*)\}", re.MULTILINE)


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"(?m)^\s*//.*$", "", text)


def modules() -> dict[str, str]:
    """Every module under static/js and static/dev by its path from static/, comments out."""
    return {
        path.relative_to(STATIC).as_posix(): strip_comments(path.read_text(encoding="utf-8"))
        for folder in ("js", "dev")
        for path in sorted((STATIC / folder).rglob("*.js"))
    }


def resolve(module: str, target: str) -> str | None:
    """A relative or /static/ import's module path from static/; None for anything else."""
    if target.startswith("/static/"):
        return target.removeprefix("/static/")
    if target.startswith("."):
        return posixpath.normpath(posixpath.join(posixpath.dirname(module), target))
    return None


def imports(module: str, text: str) -> list[tuple[str, list[str]]]:
    """(imported module, names taken in braces) for each import of a module."""
    found = []
    for match in FROM.finditer(text):
        braces = BRACES.search(match.group("what"))
        names = []
        if braces:
            for item in braces.group("names").split(","):
                name = item.strip().split(" as ")[0].strip()
                if name:
                    names.append(name)
        found.append((match.group("path"), names))
    found += [(match.group("path"), []) for match in BARE.finditer(text)]
    found += [(match.group("path"), []) for match in DYNAMIC.finditer(text)]
    return [(path, names) for target, names in found if (path := resolve(module, target))]


def exports(text: str) -> set[str]:
    names = {match.group("name") for match in DECLARED.finditer(text)}
    for match in EXPORT_LIST.finditer(text):
        for item in match.group("names").split(","):
            name = item.strip().split(" as ")[-1].strip()
            if name:
                names.add(name)
    return names


def graph() -> dict[str, list[tuple[str, list[str]]]]:
    return {module: imports(module, text) for module, text in modules().items()}


def test_the_parser_sees_the_boards_imports() -> None:
    arrows = {module: {path for path, _ in found} for module, found in graph().items()}
    assert "js/board/geometry.js" in arrows["js/board/input.js"]
    assert "js/board/race.js" in arrows["js/views/game.js"]  # a dynamic import
    assert "js/board/input.js" in arrows["js/board/draughts.js"]


def test_every_import_exists_and_is_exported() -> None:
    sources = modules()
    problems = []
    for module, found in graph().items():
        for path, names in found:
            if path not in sources:
                problems.append(f"{module} imports {path}, which does not exist")
                continue
            missing = sorted(set(names) - exports(sources[path]))
            if missing:
                problems.append(
                    f"{module} imports {', '.join(missing)} that {path} does not export"
                )
    assert not problems, "\n".join(problems)


def test_no_import_circle() -> None:
    arrows = {module: sorted({path for path, _ in found}) for module, found in graph().items()}
    circles: list[list[str]] = []
    state: dict[str, str] = {}  # "open" while on the path, "done" after

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in arrows.get(module, []):
            if state.get(target) == "open":
                circles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = "done"

    for module in arrows:
        if module not in state:
            visit(module, [module])
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)
