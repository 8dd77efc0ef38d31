"""Provably fair dice: commit to a secret seed, derive the roll, reveal the seed (PL-2).

Before every roll the game has already published :func:`commitment` of a fresh
secret 32-byte server seed. The roll action brings a nonce (from the roller's
client; the server's own for bots and automatic rolls). The dice are read from
``HMAC-SHA256(seed, f"{nonce}:{roll}:{block}")`` with rejection sampling, and the
seed is revealed in the same event as the dice, next to the commitment for the
following roll. Anyone can therefore check a roll the moment it is made, and
nobody, the server included, can change a roll once its commitment is out.
``docs/fair-dice.md`` gives the scheme step by step and its limits.

Pure like the rest of ``sheshbesh.play``: seeds and server nonces come in as
callables, so tests and replays are deterministic.

Errors are ``ValueError`` subclasses, so "bad input" is one ``except``::

    ValueError
     └── DiceError
          ├── InvalidSeed    not 32 bytes, or the seed being revealed used again
          ├── InvalidNonce   empty, over 64 characters, ':' or not printable ASCII
          ├── InvalidRoll    a roll number below 1, or a dice count outside 1–8
          └── InvalidProof   a proof with missing fields, wrong types or bad hex
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

SEED_BYTES = 32
MAX_NONCE = 64
MAX_DICE = 8  # a Chouette order roll: one die for each of up to 8 participants (CH-1, CH-2)
ACCEPT_BELOW = 252  # 6 × 42: bytes 0–251 map evenly onto 1–6, bytes 252–255 are skipped
_HEX = frozenset("0123456789abcdef")


class DiceError(ValueError):
    """Base of every fair-dice error."""


class InvalidSeed(DiceError):
    """A server seed that is not exactly 32 bytes, or is not fresh."""


class InvalidNonce(DiceError):
    """A roll nonce that is empty, too long, or has a character outside the allowed set."""


class InvalidRoll(DiceError):
    """A roll number below 1, or a number of dice the game never rolls."""


class InvalidProof(DiceError):
    """A published proof that cannot even be read: missing fields, wrong types, bad hex."""


def commitment(seed: bytes) -> str:
    """The SHA-256 of *seed* in hex: what the game publishes before the seed's roll.

    >>> commitment(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(_checked_seed(seed)).hexdigest()


def check_nonce(nonce: str) -> str:
    """Return *nonce* if it may be used, else raise :class:`InvalidNonce` naming the problem.

    1–64 printable ASCII characters (space to ``~``) without ``:``. The colon
    separates the fields of the HMAC message, so forbidding it keeps every
    (nonce, roll, block) triple a different message.

    >>> check_nonce("f3a9-c1")
    'f3a9-c1'
    >>> check_nonce("a:b")
    Traceback (most recent call last):
    ...
    sheshbesh.play.dice.InvalidNonce: nonce contains ':' at position 1; ':' separates the fields \
of the HMAC message
    """
    if not isinstance(nonce, str):
        raise InvalidNonce(f"nonce must be a string, not {type(nonce).__name__}")
    if not nonce:
        raise InvalidNonce(f"nonce is empty; give 1 to {MAX_NONCE} printable ASCII characters")
    if len(nonce) > MAX_NONCE:
        raise InvalidNonce(f"nonce is {len(nonce)} characters long; at most {MAX_NONCE}")
    for position, char in enumerate(nonce):
        if char == ":":
            raise InvalidNonce(
                f"nonce contains ':' at position {position}; "
                "':' separates the fields of the HMAC message"
            )
        if not " " <= char <= "~":
            raise InvalidNonce(
                f"nonce contains {char!r} at position {position}; "
                "only printable ASCII (space to '~') is allowed"
            )
    return nonce


def derive_dice(seed: bytes, nonce: str, roll_number: int, count: int = 2) -> tuple[int, ...]:
    """The *count* dice of roll *roll_number*: the whole fairness scheme in one function.

    The digests of ``HMAC-SHA256(key=seed, msg=f"{nonce}:{roll_number}:{block}")``
    for block 0, 1, 2, … are read byte by byte; a byte ``b < 252`` gives the die
    ``b % 6 + 1`` and a larger byte is skipped, so each face has probability
    exactly 1/6 (``b % 6`` over all 256 bytes would favour 1–4). For an opening
    roll the first die is White's and the second Black's; a Chouette order roll
    gives one die per participant in seating order.

    >>> derive_dice(bytes(range(32)), "abc", 1)
    (4, 5)
    >>> derive_dice(bytes(range(32)), "abc", 2, count=4)
    (5, 3, 4, 3)
    """
    _checked_seed(seed)
    check_nonce(nonce)
    _check_roll_number(roll_number)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidRoll(f"count must be a whole number from 1, not {count!r}")
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        message = f"{nonce}:{roll_number}:{block}".encode("ascii")
        digest = hmac.digest(seed, message, "sha256")
        dice += [byte % 6 + 1 for byte in digest if byte < ACCEPT_BELOW]
        block += 1
    return tuple(dice[:count])


@dataclass(frozen=True, slots=True)
class RollProof:
    """What a roll event publishes so that anyone can recompute its dice.

    ``seed`` and ``commit`` are lowercase hex. Constructing one checks only its
    form (:class:`InvalidProof`); whether it is honest is :func:`verify_events`'s
    question, asked against the commitment published before the roll.

    >>> proof = RollProof(1, "abc", bytes(range(32)).hex(), commitment(bytes(range(32))))
    >>> proof.dice()
    (4, 5)
    >>> RollProof.from_json(proof.to_json()) == proof
    True
    """

    roll: int
    nonce: str
    seed: str
    commit: str

    def __post_init__(self) -> None:
        try:
            _check_roll_number(self.roll)
            check_nonce(self.nonce)
        except DiceError as error:
            raise InvalidProof(f"proof {error}") from None
        for name in ("seed", "commit"):
            if not _is_hex64(getattr(self, name)):
                raise InvalidProof(f"proof {name} must be 64 lowercase hex digits")

    def dice(self, count: int = 2) -> tuple[int, ...]:
        """The dice this proof's seed, nonce and roll number give."""
        return derive_dice(bytes.fromhex(self.seed), self.nonce, self.roll, count)

    def to_json(self) -> dict[str, int | str]:
        """The proof as it appears in an event: ``{"roll", "nonce", "seed", "commit"}``."""
        return {"roll": self.roll, "nonce": self.nonce, "seed": self.seed, "commit": self.commit}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RollProof:
        """Read a proof from a decoded event; anything malformed is an :class:`InvalidProof`."""
        if not isinstance(data, Mapping):
            raise InvalidProof(f"proof must be a JSON object, not {_kind(data)}")
        fields = {"roll": int, "nonce": str, "seed": str, "commit": str}
        for name in data:
            if name not in fields:
                raise InvalidProof(f"proof has an unknown field {_short(name)}")
        for name, kind in fields.items():
            if name not in data:
                raise InvalidProof(f"proof has no {name!r}")
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, kind):
                raise InvalidProof(f"proof {name} must be a {kind.__name__}, not {_kind(value)}")
        return cls(data["roll"], data["nonce"], data["seed"], data["commit"])


@dataclass(frozen=True, slots=True, repr=False)
class DiceBox:
    """A game's (or match's) dice: the number of the next roll and its committed seed.

    ``secret`` is published only when its roll is made, so ``repr`` shows the
    commitment instead. Roll numbers count over the whole game or match,
    opening rolls and re-rolled ties included.

    >>> from itertools import count
    >>> seeds = (n.to_bytes(32, "big") for n in count(1))
    >>> box = DiceBox.open(lambda: next(seeds))
    >>> box
    DiceBox(next_roll=1, commit='ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5')
    >>> dice, proof, box = box.roll("nonce-from-client", lambda: next(seeds))
    >>> dice, proof.roll, box.next_roll
    ((2, 2), 1, 2)
    >>> proof.commit == commitment(bytes.fromhex(proof.seed))
    True
    """

    next_roll: int
    secret: bytes

    def __post_init__(self) -> None:
        _check_roll_number(self.next_roll)
        _checked_seed(self.secret)

    def __repr__(self) -> str:
        return f"DiceBox(next_roll={self.next_roll}, commit={self.commit!r})"

    @property
    def commit(self) -> str:
        """The published commitment for the next roll (an event's ``next_commit``)."""
        return commitment(self.secret)

    @classmethod
    def open(cls, new_seed: Callable[[], bytes]) -> DiceBox:
        """A box for roll 1, committed to a seed from *new_seed*; publish its ``commit``."""
        return cls(1, new_seed())

    def roll(
        self, nonce: str, new_seed: Callable[[], bytes], count: int = 2
    ) -> tuple[tuple[int, ...], RollProof, DiceBox]:
        """Make the next roll: its dice, the proof to publish, and the box for the roll after.

        The new box is already committed to a fresh seed from *new_seed*; the
        roll event publishes ``proof`` and the new box's ``commit`` together.
        Everything is checked before anything is derived, and a box never
        changes, so an error leaves the game exactly as it was.
        """
        check_nonce(nonce)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_DICE:
            raise InvalidRoll(f"a roll has 1 to {MAX_DICE} dice, not {count!r}")
        seed = _checked_seed(new_seed())
        if seed == self.secret:
            raise InvalidSeed(
                "the new seed is the one being revealed; every roll needs a fresh seed"
            )
        dice = derive_dice(self.secret, nonce, self.next_roll, count)
        proof = RollProof(self.next_roll, nonce, self.secret.hex(), self.commit)
        return dice, proof, DiceBox(self.next_roll + 1, seed)


class RollRules(Protocol):
    """What a game's rules decide with its dice, for :func:`verify_events` to check too.

    The commitments fix each roll's dice; the events also say how many dice were
    rolled and what they decided (who starts, the first dice, a roll ignored).
    ``see`` follows every event, in order, after the audit has read it;
    ``dice_count`` says how many dice a roll event rolls (None: 1 to 8, as given);
    ``problems`` names what a roll event says that the seed's dice contradict.
    ``sheshbesh.play.dice_rules.RaceDiceRules`` is the race games' and matches'.
    """

    def see(self, event: Mapping[str, Any]) -> None: ...

    def dice_count(self, event: Mapping[str, Any]) -> int | None: ...

    def problems(self, event: Mapping[str, Any], dice: tuple[int, ...]) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class DiceVerdict:
    """The outcome of checking a record's rolls; each problem names its event and roll."""

    rolls_checked: int
    problems: tuple[str, ...] = ()

    @property
    def honest(self) -> bool:
        """True when every roll checked out (a record with no rolls is honest)."""
        return not self.problems

    def report(self) -> str:
        """The text ``sheshbesh verify-dice`` prints.

        >>> problem = "event 3: roll 2: dice [1, 1] but the seed gives [1, 2]"
        >>> print(DiceVerdict(2, (problem,)).report())
        NOT honest: 1 problem in 2 rolls
          event 3: roll 2: dice [1, 1] but the seed gives [1, 2]
        """
        rolls = f"{self.rolls_checked} roll{'' if self.rolls_checked == 1 else 's'}"
        if self.honest:
            return f"honest: {rolls} checked, each against the commitment published before it"
        count = len(self.problems)
        head = f"NOT honest: {count} problem{'' if count == 1 else 's'} in {rolls}"
        return "\n".join([head, *(f"  {problem}" for problem in self.problems)])


def verify_events(
    events: Iterable[Mapping[str, Any]], rules: RollRules | None = None
) -> DiceVerdict:
    """Recompute every roll of an event log, in order, and say what does not check out.

    Any event may carry ``"next_commit"``: the commitment for the next roll. Once
    published it may be repeated but not replaced before a roll uses it. An
    event with ``"dice"`` must carry ``"proof"`` (see :class:`RollProof`); its
    proof must name the commitment published before the event (an event's own
    ``next_commit`` is for the roll after it), the seed must hash to it, rolls
    must count 1, 2, 3, … and the dice must be the ones the seed gives. A seed
    may be revealed only once. With *rules*, each roll must also have the number
    of dice they say, and what its event says the dice decided must be what the
    seed's dice decide (:class:`RollRules`). Malformed events are problems, never
    exceptions.
    """
    audit = _Audit(rules)
    for index, event in enumerate(events):
        audit.see(index, event)
    return DiceVerdict(audit.rolls, tuple(audit.problems))


def verify_record(record: Mapping[str, Any]) -> DiceVerdict:
    """:func:`verify_events` over a decoded game record ``{"events": [...], ...}``."""
    if not isinstance(record, Mapping):
        return DiceVerdict(0, (f"the record must be a JSON object, not {_kind(record)}",))
    events = record.get("events")
    if not isinstance(events, list | tuple):
        return DiceVerdict(0, ('the record has no "events" list',))
    return verify_events(events)


class _Audit:
    """One walk over a log: the unused commitment, the last roll, the seeds revealed."""

    def __init__(self, rules: RollRules | None = None) -> None:
        self.rules = rules
        self.commit: str | None = None
        self.commit_at = ""
        self.last_roll = 0
        self.revealed: dict[str, int] = {}
        self.rolls = 0
        self.problems: list[str] = []

    def see(self, index: int, event: object) -> None:
        where = f"event {index}"
        if not isinstance(event, Mapping):
            self.problems.append(f"{where}: must be a JSON object, not {_kind(event)}")
            return
        seq = event.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            where += f" (seq {seq})"
        if "dice" in event or "proof" in event:
            self._roll(where, event)
        if "next_commit" in event:
            self._publish(where, event["next_commit"])
        if self.rules is not None:
            self.rules.see(event)

    def _roll(self, where: str, event: Mapping[str, Any]) -> None:
        self.rolls += 1
        published, self.commit = self.commit, None  # a commitment serves one roll only
        if "proof" not in event:
            self.last_roll += 1
            self.problems.append(f"{where}: dice without a proof")
            return
        try:
            proof = RollProof.from_json(event["proof"])
        except DiceError as error:
            self.last_roll += 1
            self.problems.append(f"{where}: {error}")
            return
        if proof.roll != self.last_roll + 1:
            self.problems.append(
                f"{where}: roll {proof.roll} follows roll {self.last_roll}"
                if self.last_roll
                else f"{where}: roll {proof.roll} is the first roll; rolls count from 1"
            )
        problems = []
        seed_commit = hashlib.sha256(bytes.fromhex(proof.seed)).hexdigest()
        if published is None:
            problems.append("no commitment was published before it")
            if seed_commit != proof.commit:
                problems.append("seed does not match the commitment in its proof")
        else:
            if proof.commit != published:
                problems.append(
                    f"proof names commitment {proof.commit[:12]}… but {published[:12]}… "
                    f"was published before it ({self.commit_at})"
                )
            if seed_commit != published:
                problems.append("seed does not match the commitment published before it")
        if proof.seed in self.revealed:
            problems.append(
                f"seed was already revealed with roll {self.revealed[proof.seed]}, "
                "so it was known before this roll"
            )
        count = self.rules.dice_count(event) if self.rules is not None else None
        dice = event.get("dice")
        if "dice" not in event:
            problems.append("proof without dice")
        elif not _is_dice(dice):
            problems.append(
                f"dice must be a list of 1 to {MAX_DICE} whole numbers, not {_short(dice)}"
            )
        elif (derived := list(proof.dice(count or len(dice)))) != dice:
            problems.append(
                f"dice {dice} but the seed gives {derived}"
                if len(derived) == len(dice)
                else f"dice {dice} but {_short(event.get('type'))} events roll {count} dice; "
                f"the seed gives {derived}"
            )
        if count is not None and self.rules is not None:
            problems += self.rules.problems(event, proof.dice(count))
        self.problems += [f"{where}: roll {proof.roll}: {problem}" for problem in problems]
        self.last_roll = proof.roll
        self.revealed.setdefault(proof.seed, proof.roll)

    def _publish(self, where: str, value: object) -> None:
        if not _is_hex64(value):
            self.commit = None
            self.problems.append(f"{where}: next_commit must be 64 lowercase hex digits")
            return
        if self.commit is not None and value != self.commit:
            self.problems.append(
                f"{where}: next_commit replaces the commitment for roll {self.last_roll + 1} "
                f"({self.commit_at}) before that roll was made"
            )
        if value != self.commit:
            self.commit, self.commit_at = value, where


def _checked_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes):
        raise InvalidSeed(f"a seed must be bytes, not {type(seed).__name__}")
    if len(seed) != SEED_BYTES:
        raise InvalidSeed(f"a seed must be exactly {SEED_BYTES} bytes, not {len(seed)}")
    return seed


def _check_roll_number(roll: int) -> None:
    if isinstance(roll, bool) or not isinstance(roll, int) or roll < 1:
        raise InvalidRoll(f"roll number must be a whole number from 1, not {roll!r}")


def _is_hex64(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX


def _is_dice(value: object) -> TypeGuard[list[int]]:
    return (
        isinstance(value, list)
        and 1 <= len(value) <= MAX_DICE
        and all(isinstance(die, int) and not isinstance(die, bool) for die in value)
    )


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
