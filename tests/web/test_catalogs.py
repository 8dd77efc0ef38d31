"""The translation catalogs (``static/i18n/LANG.json``) against each other and the client.

Every visible string of the web client goes through ``t("key", vars)``; a key missing
from a catalog shows English (or the bare key) instead of the reader's language. So:

- every catalog has exactly the keys of ``en.json``, except that a counted text
  (``verify.roll_count.one`` / ``.other``) has the plural forms of its own language
  (``Intl.PluralRules``: Russian one/few/many/other, Welsh zero/one/two/few/many/other);
- every text keeps exactly the ``{placeholders}`` of its English text;
- every key the JavaScript asks for exists: the literal ones (``t("lobby.accept")``)
  and the families built at run time (``t(`variant.${name}`)``), whose members come
  from the server's own lists (variants, action types, options, ledger reasons) or
  from the client's (the codes of fairdice.js, the board's piece names);
- no text is empty, and no translation is still the English text unless listed in
  ``SAME_AS_ENGLISH`` (placeholders only, names, terms a language borrows as they are).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import typing
from typing import Any

import pytest

from sheshbesh import web
from sheshbesh.bots import analysis_report as report
from sheshbesh.games import VARIANTS
from sheshbesh.play.result import END_RULES
from sheshbesh.server.accounts.items import CATALOGUE
from sheshbesh.server.bots import roster as bots
from sheshbesh.server.chat import rooms as chat
from sheshbesh.server.lobby import requests as lobby
from sheshbesh.server.rounds import tables

STATIC = web.STATIC
I18N = STATIC / "i18n"
JS = STATIC / "js"
LANGUAGES = web.LANGUAGES
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]

# The plural categories of each language (CLDR, what Intl.PluralRules(lang).select gives).
PLURALS: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "ru": ("one", "few", "many", "other"),
    "pt": ("one", "many", "other"),
    "fa": ("one", "other"),
    "el": ("one", "other"),
    "cy": ("zero", "one", "two", "few", "many", "other"),
}
CATEGORIES = {"zero", "one", "two", "few", "many", "other"}

# The English text may stay where it is only placeholders, a name or a borrowed term.
_EVERYWHERE = {"fun.amount", "profile.amount", "board.label", "verify.at", "chouette.proposal"}
_NAMES = {"variant.jacquet", "variant.plakoto", "variant.takhte_nard", "option.mars", "option.oin"}
SAME_AS_ENGLISH: dict[str, set[str]] = {
    "ru": _EVERYWHERE,
    # Portuguese players say gammon, backgammon and pips as English players do.
    "pt": _EVERYWHERE
    | _NAMES
    | {"result.level_2", "result.level_3", "room.pips"}
    | {"room.points.one", "room.points.other", "board.pips_of.one", "board.pips_of.other"}
    | {"verify.col.nonce", "lobby.chouette", "variant.chouette"},
    "fa": _EVERYWHERE,
    # Greek and Welsh, like Portuguese, borrow the cryptographers' "nonce".
    "el": _EVERYWHERE | {"verify.col.nonce"},
    "cy": _EVERYWHERE
    | _NAMES
    | {"board.bar", "verify.col.nonce", "lobby.chouette", "variant.chouette"}
    # Welsh counts with the singular noun: "{n} pip" for every n, as English says one.
    | {"board.pips_of.one"},
}

# t()'s own pattern (i18n.js): JavaScript's \w is ASCII.
PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_]+)\}")

# Action types a player makes on the board (steps, typed moves), not with a button.
BOARD_ACTIONS = {"move", "play"}
# Transfer.reason in sheshbesh.store.models.
LEDGER_REASONS = ("grant", "escrow", "payout", "refund", "purchase")
RESULT_LEVELS = ("1", "2", "3")


# --- reading the catalogs and the client ---------------------------------------------------


def load(lang: str) -> dict[str, str]:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        doubled = sorted({key for key in keys if keys.count(key) > 1})
        assert not doubled, f"{lang}.json has keys twice: {', '.join(doubled)}"
        return dict(pairs)

    text = (I18N / f"{lang}.json").read_text(encoding="utf-8")
    catalog = json.loads(text, object_pairs_hook=no_duplicates)
    assert isinstance(catalog, dict), f"{lang}.json is not a JSON object"
    return catalog


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, str]]:
    return {lang: load(lang) for lang in LANGUAGES}


@pytest.fixture(scope="module")
def english(catalogs: dict[str, dict[str, str]]) -> dict[str, str]:
    return catalogs["en"]


def plural_bases(english: dict[str, str]) -> set[str]:
    """Texts with plural forms: ``base.one`` and ``base.other`` are both in en.json."""
    return {key[: -len(".other")] for key in english if key.endswith(".other")} & {
        key[: -len(".one")] for key in english if key.endswith(".one")
    }


def split_plural(key: str, bases: set[str]) -> tuple[str, str] | None:
    base, _, category = key.rpartition(".")
    return (base, category) if base in bases and category in CATEGORIES else None


def expected_keys(english: dict[str, str], lang: str) -> set[str]:
    bases = plural_bases(english)
    plain = {key for key in english if not split_plural(key, bases)}
    return plain | {f"{base}.{category}" for base in bases for category in PLURALS[lang]}


def english_text(english: dict[str, str], key: str) -> str | None:
    """The English a key translates: its own, or for a plural form the ``other`` form."""
    if key in english:
        return english[key]
    plural = split_plural(key, plural_bases(english))
    return english[f"{plural[0]}.other"] if plural else None


def js_sources() -> dict[str, str]:
    """Every module under static/js, with its comments taken out."""
    out = {}
    for path in sorted(JS.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
        text = re.sub(r"(?m)^\s*//.*$", "", text)
        out[str(path.relative_to(STATIC))] = text
    return out


# The first argument of t(...): a string literal, maybe followed by + (a family prefix).
T_CALL = re.compile(r"""\bt\(\s*(?P<q>["'])(?P<key>(?:\\.|(?!(?P=q)).)*)(?P=q)(?P<plus>\s*\+)?""")
STRING = re.compile(r"""(?P<q>["'])(?P<text>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)""")
TEMPLATE = re.compile(r"`(?P<text>(?:\\.|[^`\\])*)`")
HOLE = re.compile(r"\$\{[^}]*\}")
# What comes before the first ${…} of a template that builds a key: "variant.", "board.one_".
KEY_PREFIX = re.compile(r"[a-z][a-z0-9_]*\.(?:[a-z0-9_]+\.)*[a-z0-9_]*")
PLURAL_CALL = re.compile(r"""\b(?:plural|pluralKey|trPlural)\(\s*["'](?P<base>[\w.]+)["']""")


def literal_values(annotation: Any) -> set[str]:
    """The strings of the Literal[...] inside an annotation such as ``Literal["a"] | None``."""
    if typing.get_origin(annotation) is typing.Literal:
        return {value for value in typing.get_args(annotation) if isinstance(value, str)}
    return {value for arg in typing.get_args(annotation) for value in literal_values(arg)}


def dice_codes() -> tuple[set[str], set[str]]:
    """fairdice.js's problem codes (one roll or event) and its codes for unreadable records."""
    source = js_sources().get("js/fairdice.js")
    if source is None:
        return set(), set()
    problems = set(re.findall(r"""\b(?:said|fail)\(\s*"(\w+)\"""", source))
    problems |= set(re.findall(r"""\bproblem\(\s*at,\s*[\w.]+,\s*"(\w+)\"""", source))
    if "`proof_${error.code}`" in source:  # readProof renames its checks' DiceErrors
        for check in ("checkNonce", "checkRollNumber"):
            body = re.search(rf"function {check}\(.*?\n\}}\n", source, re.DOTALL)
            assert body, f"fairdice.js: no function {check}"
            found = re.findall(r"""new DiceError\(\s*"(\w+)\"""", body.group(0))
            problems |= {f"proof_{code}" for code in found}
    unreadable = set(re.findall(r"""\bunreadable\(\s*"(\w+)\"""", source))
    assert problems and unreadable, "fairdice.js: found no problem codes"
    return problems, unreadable


def verify_columns() -> list[str]:
    """The COLUMNS of views/verify.js's table."""
    source = js_sources().get("js/views/verify.js", "COLUMNS = []")
    found = re.search(r"COLUMNS\s*=\s*\[(.*?)\]", source, re.DOTALL)
    assert found, "views/verify.js: no COLUMNS"
    return re.findall(r"""["'](\w+)["']""", found.group(1))


def families() -> dict[str, set[str]]:
    """Keys built at run time, by their template with every ``${…}`` written ``${}``."""
    actions = (set(tables.RACE_ACTIONS) | set(tables.DRAUGHTS_ACTIONS) | {"resign"}) - BOARD_ACTIONS
    stake_modes = literal_values(lobby.RequestIn.model_fields["stake_mode"].annotation)
    options = set(lobby.RACE_FIELDS) | {"move_limit", "colour"} | stake_modes
    colours = literal_values(lobby.RequestIn.model_fields["colour"].annotation)
    problems, unreadable = dice_codes()
    members: dict[str, list[Any]] = {
        "variant.${}": [VARIANTS],
        "action.${}": [actions],
        "result.level_${}": [RESULT_LEVELS],
        "result.rule.${}": [END_RULES],
        "ledger.${}": [LEDGER_REASONS],
        "option.${}": [options],
        # views/lobby.js: the bots card words each bot of the club's roster.
        "bot.about.${}": [{spec.username for spec in bots.ROSTER}],
        # views/lobby.js: the draughts colour select and the request's tag.
        "option.colour_${}": [colours],
        "option.owner_${}": [colours - {"random"}],
        # board/draughts.js: what stands on a square.
        "board.${}_${}": [("white", "black"), ("man", "king")],
        # views/verify.js: its table's COLUMNS, problemText, the verdict on an unreadable record.
        "verify.col.${}": [verify_columns()],
        "verify.problem.${}": [problems],
        "verify.error.${}": [unreadable],
        # roomtools.js positionText(): what the copied position is.
        "room.id_${}": [("gnubg", "fen", "position")],
        # views/shop.js: every item of the shop's catalogue, "avatar:crown" as "avatar.crown".
        "shop.item.${}": [{item.id.replace(":", ".") for item in CATALOGUE}],
        # review.js: gnubg's labels (analysis_report), spaces written "_".
        "review.skill.${}": [{label for _, label in report.SKILL_STEPS} | {"none"}],
        "review.rating.${}": [{label for _, label in report.RATING_STEPS} | {"awful", "none"}],
        "review.luck.${}": [
            {label for _, label in report.LUCK_STEPS + report.LUCK_RATING_STEPS} | {"very unlucky"}
        ],
        "review.action.${}": [{"double", "no double", "take", "drop", "beaver", "cannot move"}],
        # crew.js and views/chouette.js: what a seat does in a chouette game.
        "chouette.role_${}": [("banker", "captain", "bettor")],
        # chat.js: the title of each room a panel can show.
        "chat.room_${}": [literal_values(typing.get_type_hints(chat.Room)["name"])],
    }
    out = {}
    for template, parts in members.items():
        pieces = template.split("${}")
        out[template] = {
            "".join(itertools.chain(*itertools.zip_longest(pieces, names, fillvalue=""))).replace(
                " ", "_"
            )
            for names in itertools.product(*(sorted(part) for part in parts))
        }
    return out


# --- the checks ---------------------------------------------------------------------------


def test_languages_have_catalogs() -> None:
    files = {path.stem for path in I18N.glob("*.json")}
    assert files == set(LANGUAGES), f"catalog files {sorted(files)}, languages {LANGUAGES}"
    module = (JS / "i18n.js").read_text(encoding="utf-8")
    table = re.search(r"LANGUAGES\s*=\s*\{(.*?)\}", module, re.DOTALL)
    assert table, "i18n.js no longer has its LANGUAGES table"
    listed = re.findall(r"(\w+)\s*:", table.group(1))
    assert set(listed) == set(LANGUAGES), f"i18n.js lists {listed}, the server {LANGUAGES}"
    assert set(PLURALS) == set(LANGUAGES)


def test_same_keys(catalogs: dict[str, dict[str, str]], english: dict[str, str]) -> None:
    problems = []
    for lang in LANGUAGES:
        keys, want = set(catalogs[lang]), expected_keys(english, lang)
        missing, extra = sorted(want - keys), sorted(keys - want)
        if missing:
            problems.append(f"{lang}.json misses {len(missing)}: {', '.join(missing)}")
        if extra:
            problems.append(f"{lang}.json has {len(extra)} too many: {', '.join(extra)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_form(catalogs: dict[str, dict[str, str]], lang: str) -> None:
    catalog = catalogs[lang]
    odd = [key for key, value in catalog.items() if not isinstance(value, str)]
    assert not odd, f"{lang}.json: not text: {', '.join(odd)}"
    assert list(catalog) == sorted(catalog), f"{lang}.json: keys are not sorted"


def test_placeholders(catalogs: dict[str, dict[str, str]], english: dict[str, str]) -> None:
    problems = []
    for lang in LANGUAGES:
        for key, text in catalogs[lang].items():
            source = english_text(english, key)
            if source is None:
                continue
            want = sorted(PLACEHOLDER.findall(source))
            got = sorted(PLACEHOLDER.findall(text))
            if got != want:
                problems.append(f"{lang} {key}: has {got}, English has {want}: {text!r}")
            elif re.search(r"[{}]", PLACEHOLDER.sub("", text)):
                problems.append(f"{lang} {key}: a stray brace: {text!r}")
    assert not problems, "\n".join(problems)


def test_no_empty_or_forgotten_text(
    catalogs: dict[str, dict[str, str]], english: dict[str, str]
) -> None:
    problems = [f"en {key}: empty" for key, text in english.items() if not text.strip()]
    for lang in TRANSLATIONS:
        allowed = SAME_AS_ENGLISH[lang]
        for key, text in catalogs[lang].items():
            if not text.strip():
                problems.append(f"{lang} {key}: empty")
            elif text == english.get(key) and key not in allowed:
                problems.append(f"{lang} {key}: still the English text {text!r}")
        stale = sorted(key for key in allowed if catalogs[lang].get(key) != english.get(key))
        problems += [f"{lang} {key}: translated now, drop it from SAME_AS_ENGLISH" for key in stale]
    assert not problems, "\n".join(problems)


def test_js_keys_exist(english: dict[str, str]) -> None:
    known = families()
    sources = js_sources()
    calls = [call for source in sources.values() for call in T_CALL.finditer(source)]
    templates = [
        HOLE.sub("${}", found["text"])
        for source in sources.values()
        for found in TEMPLATE.finditer(source)
        if KEY_PREFIX.fullmatch(found["text"].split("${", 1)[0])
    ]
    namespaces = {
        key.split(".", 1)[0] for key in [*english, *(c["key"] for c in calls), *templates]
    }
    key_like = re.compile(
        rf"(?:{'|'.join(map(re.escape, sorted(namespaces)))})\.[a-z0-9_.]*[a-z0-9_]"
    )
    bases = {call["base"] for source in sources.values() for call in PLURAL_CALL.finditer(source)}
    problems = [
        f"plural base {base}: en.json needs {base}.one and {base}.other"
        for base in sorted(bases - plural_bases(english))
    ]
    for name, source in sources.items():
        for call in T_CALL.finditer(source):
            key = call["key"]
            if call["plus"]:
                if key + "${}" not in known:
                    problems.append(f'{name}: t("{key}" + …): list the family in families()')
            elif key not in english:
                problems.append(f"{name}: {key} is not in en.json")
        # Keys chosen before a call: t(mode ? "auth.login" : "auth.register"), tr(key), …
        for string in STRING.finditer(source):
            text = string["text"]
            if key_like.fullmatch(text) and text not in english and text not in bases:
                problems.append(f"{name}: {text} is not in en.json")
        # Keys built at run time: t(`variant.${name}`).
        for template in TEMPLATE.finditer(source):
            text = template["text"]
            shape = HOLE.sub("${}", text)
            if "${" in text and KEY_PREFIX.fullmatch(text.split("${", 1)[0]) and shape not in known:
                problems.append(f"{name}: `{text}`: list this family in families()")
    assert not problems, "\n".join(sorted(set(problems)))


def test_families_complete(english: dict[str, str]) -> None:
    """Every member of every run-time family has a text, whatever the JS shows today."""
    problems = [
        f"{template} misses {key}"
        for template, keys in families().items()
        for key in sorted(keys - set(english))
    ]
    assert not problems, "\n".join(problems)


def test_server_offers_only_known_options() -> None:
    offered = asyncio.run(lobby.variants())
    names = {name for entry in offered for name in entry["options"]}
    unknown = {f"option.{name}" for name in names} - families()["option.${}"]
    assert not unknown, f"the server offers options without a text: {sorted(unknown)}"
