// Fair dice, checked in the browser (PL-2, docs/fair-dice.md).
//
// A faithful port of the verification in sheshbesh.play.dice: every roll's
// revealed seed must hash (SHA-256) to the commitment published before it, roll
// numbers count 1, 2, 3, … and the dice are read from
// HMAC-SHA256(seed, `${nonce}:${roll}:${block}`) with rejection sampling (a byte
// below 252 gives the die byte % 6 + 1, larger bytes are skipped). Each roll must
// also have two dice and say what the rules decide with them (sheshbesh.play.dice_rules:
// the opening's starter, White's seat and first dice, RB-8's ignored rolls). The walk
// over the events, every check and every problem text are those of verify_events, so
// a record gets the same verdict here as from `sheshbesh verify-dice`.
//
// Each problem is also kept as {code, vars} so that a page can translate it; the
// English text in `problems` is exactly what Python reports.

export const FORMAT = "sheshbesh-record/1";
export const SEED_BYTES = 32;
export const MAX_NONCE = 64;
export const MAX_DICE = 8;
export const ACCEPT_BELOW = 252;
const HEX64 = /^[0-9a-f]{64}$/;

/** Bad input to deriveDice (the port of sheshbesh.play.dice.DiceError). */
export class DiceError extends Error {
  constructor(code, vars, message) {
    super(message);
    this.name = "DiceError";
    this.code = code;
    this.vars = vars;
  }
}

/** This page cannot reach Web Crypto (it needs HTTPS or localhost). */
export class NoWebCrypto extends Error {
  constructor() {
    super("Web Crypto (crypto.subtle) is not available on this page");
    this.name = "NoWebCrypto";
  }
}

function subtle() {
  const found = globalThis.crypto && globalThis.crypto.subtle;
  if (!found) throw new NoWebCrypto();
  return found;
}

// --- bytes and hex --------------------------------------------------------------------

export function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function isHex64(value) {
  return typeof value === "string" && HEX64.test(value);
}

/** SHA-256 of the seed bytes in hex: the commitment published before the seed's roll. */
export async function commitment(seed) {
  return bytesToHex(new Uint8Array(await subtle().digest("SHA-256", seed)));
}

// --- Python's view of JSON values (for messages identical to the CLI's) -------------

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isWhole(value) {
  return typeof value === "number" && Number.isInteger(value);
}

/** The Python type name of a decoded JSON value (dice.py's _kind). */
export function kind(value) {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  return Array.isArray(value) ? "list" : "dict";
}

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function strRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote || char === "\\") out += "\\" + char;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char !== " " && UNPRINTABLE.test(char)) {
      if (code < 0x100) out += "\\x" + code.toString(16).padStart(2, "0");
      else if (code < 0x10000) out += "\\u" + code.toString(16).padStart(4, "0");
      else out += "\\U" + code.toString(16).padStart(8, "0");
    } else out += char;
  }
  return out + quote;
}

function floatRepr(value) {
  const size = Math.abs(value);
  if (size !== 0 && (size >= 1e16 || size < 1e-4)) {
    return value.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
  }
  return String(value);
}

/** Python's repr() of a decoded JSON value. */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (typeof value === "string") return strRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(value).map(([k, v]) => `${strRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
}

function short(value) {
  const chars = [...pyRepr(value)];
  return chars.length <= 40 ? chars.join("") : chars.slice(0, 39).join("") + "…";
}

// --- the scheme -------------------------------------------------------------------------

/** The nonce if it may be used, else a DiceError naming the problem (check_nonce). */
export function checkNonce(nonce) {
  if (typeof nonce !== "string") {
    throw new DiceError("nonce_type", { kind: kind(nonce) },
      `nonce must be a string, not ${kind(nonce)}`);
  }
  const chars = [...nonce];
  if (!chars.length) {
    throw new DiceError("nonce_empty", { max: MAX_NONCE },
      `nonce is empty; give 1 to ${MAX_NONCE} printable ASCII characters`);
  }
  if (chars.length > MAX_NONCE) {
    throw new DiceError("nonce_too_long", { length: chars.length, max: MAX_NONCE },
      `nonce is ${chars.length} characters long; at most ${MAX_NONCE}`);
  }
  chars.forEach((char, position) => {
    if (char === ":") {
      throw new DiceError("nonce_colon", { position },
        `nonce contains ':' at position ${position}; ':' separates the fields of the HMAC message`);
    }
    if (!(char >= " " && char <= "~")) {
      throw new DiceError("nonce_bad_char", { char: strRepr(char), position },
        `nonce contains ${strRepr(char)} at position ${position}; ` +
        "only printable ASCII (space to '~') is allowed");
    }
  });
  return nonce;
}

function checkRollNumber(roll) {
  if (!isWhole(roll) || roll < 1) {
    throw new DiceError("bad_roll_number", { value: pyRepr(roll) },
      `roll number must be a whole number from 1, not ${pyRepr(roll)}`);
  }
}

/**
 * The `count` dice of roll `roll` (derive_dice): HMAC-SHA256 digests of
 * `${nonce}:${roll}:${block}` for block 0, 1, 2, … read byte by byte, a byte
 * b < 252 giving the die b % 6 + 1. `seed` is 32 bytes (Uint8Array) or 64 hex digits.
 */
export async function deriveDice(seed, nonce, roll, count = 2) {
  const key = isHex64(seed) ? hexToBytes(seed) : seed;
  if (!(key instanceof Uint8Array) || key.length !== SEED_BYTES) {
    throw new DiceError("bad_seed", {}, `a seed must be exactly ${SEED_BYTES} bytes`);
  }
  checkNonce(nonce);
  checkRollNumber(roll);
  if (!isWhole(count) || count < 1) {
    throw new DiceError("bad_count", { value: pyRepr(count) },
      `count must be a whole number from 1, not ${pyRepr(count)}`);
  }
  const hmacKey = await subtle().importKey(
    "raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const encoder = new TextEncoder();
  const dice = [];
  for (let block = 0; dice.length < count; block++) {
    const message = encoder.encode(`${nonce}:${roll}:${block}`);
    const digest = new Uint8Array(await subtle().sign("HMAC", hmacKey, message));
    for (const byte of digest) if (byte < ACCEPT_BELOW) dice.push((byte % 6) + 1);
  }
  return dice.slice(0, count);
}

/** Read a published proof (RollProof.from_json and its __post_init__), or throw DiceError. */
export function readProof(data) {
  const fail = (code, vars, text) => { throw new DiceError(code, vars, text); };
  if (!isObject(data)) {
    fail("proof_not_object", { kind: kind(data) }, `proof must be a JSON object, not ${kind(data)}`);
  }
  const fields = { roll: "int", nonce: "str", seed: "str", commit: "str" };
  for (const name of Object.keys(data)) {
    if (!Object.hasOwn(fields, name)) {
      fail("proof_unknown_field", { field: short(name) }, `proof has an unknown field ${short(name)}`);
    }
  }
  for (const [name, type] of Object.entries(fields)) {
    if (!Object.hasOwn(data, name)) {
      fail("proof_missing_field", { field: name }, `proof has no ${strRepr(name)}`);
    }
    const got = kind(data[name]);
    if (got !== type) {
      fail("proof_field_type", { field: name, expected: type, kind: got },
        `proof ${name} must be a ${type}, not ${got}`);
    }
  }
  const proof = { roll: data.roll, nonce: data.nonce, seed: data.seed, commit: data.commit };
  try {
    checkRollNumber(proof.roll);
    checkNonce(proof.nonce);
  } catch (error) {
    if (!(error instanceof DiceError)) throw error;
    throw new DiceError(`proof_${error.code}`, error.vars, `proof ${error.message}`);
  }
  for (const name of ["seed", "commit"]) {
    if (!isHex64(proof[name])) {
      fail("proof_bad_hex", { field: name }, `proof ${name} must be 64 lowercase hex digits`);
    }
  }
  return proof;
}

function isDice(value) {
  return Array.isArray(value) && value.length >= 1 && value.length <= MAX_DICE
    && value.every(isWhole);
}

// --- what the race rules decide with the dice (sheshbesh.play.dice_rules) ------------------

/**
 * What the opening roll (BF-14) and RB-8 depend on in each race variant: find_rules'
 * `opening` and `doubles_chain`, and whether the opening winner takes White (SN-2,
 * CN-1, LN-3). tests/e2e/test_verify.py holds this table to the Python rules.
 */
export const RACE_VARIANTS = {
  backgammon: { opening: "U", winnerTakesWhite: false, doublesChain: false },
  short_nardy: { opening: "U", winnerTakesWhite: true, doublesChain: false },
  takhte_nard: { opening: "U", winnerTakesWhite: false, doublesChain: false },
  long_nardy: { opening: "F", winnerTakesWhite: true, doublesChain: false },
  caucasian_nardy: { opening: "U", winnerTakesWhite: true, doublesChain: false },
  plakoto: { opening: "F", winnerTakesWhite: false, doublesChain: false },
  russian_backgammon: { opening: "U", winnerTakesWhite: false, doublesChain: true },
  jacquet: { opening: "F", winnerTakesWhite: false, doublesChain: false },
};
/** The events that roll in a race game or a match, and how many dice each rolls. */
const ROLL_DICE = { opening: 2, rolled: 2 };
const SIDES = { W: "White", B: "Black" };

/** What an opening roll (White's die, Black's die) decides, as its event says it (opening_of). */
export function openingOf(rules, dice) {
  const [first, second] = dice;
  if (first === second) return { starter: null, first_dice: null };
  const winnerSeat = first > second ? 0 : 1;
  const decided = rules.winnerTakesWhite
    ? { starter: "W", white_seat: winnerSeat }
    : { starter: winnerSeat === 0 ? "W" : "B" };
  decided.first_dice = rules.opening === "U"
    ? [Math.max(first, second), Math.min(first, second)] : null;
  return decided;
}

function who(side) {
  if (side === null || side === undefined) return "nobody";
  return typeof side === "string" && Object.hasOwn(SIDES, side) ? SIDES[side] : short(side);
}

/** A side for a problem's vars: "W", "B", null (nobody), or how Python shows anything else. */
function sideVar(side) {
  if (side === null || side === undefined) return null;
  return typeof side === "string" && Object.hasOwn(SIDES, side) ? side : short(side);
}

/**
 * The rules of race games and matches for the audit (dice_rules.RaceDiceRules): it follows
 * the variant and who has played, says how many dice a roll event rolls, and names what
 * a roll event says that the seed's dice contradict. A side's first turn is read off the
 * events: it has no `played` event yet in this game.
 */
export class RaceDiceRules {
  constructor() {
    this.newGame(undefined);
  }

  newGame(variant) {
    this.variant = variant;
    this.told = false; // this game's unknown variant was already reported
    this.played = new Set();
    this.rules = typeof variant === "string" && Object.hasOwn(RACE_VARIANTS, variant)
      ? RACE_VARIANTS[variant] : null;
  }

  see(event) {
    const kind = event.type;
    if (kind === "created" || kind === "match_created") {
      this.newGame(event.variant);
    } else if (kind === "game_started") {
      this.newGame(isObject(event.created) ? event.created.variant : undefined);
    } else if (kind === "played" && typeof event.side === "string") {
      this.played.add(event.side);
    }
  }

  diceCount(event) {
    return typeof event.type === "string" && Object.hasOwn(ROLL_DICE, event.type)
      ? ROLL_DICE[event.type] : null;
  }

  /** The problems of a roll event, as {code, vars, text}; `dice` are the seed's. */
  problems(event, dice) {
    const found = [];
    const said = (code, vars, text) => found.push({ code, vars, text });
    if (this.rules === null) {
      if (!this.told) {
        this.told = true;
        said("no_variant", { variant: short(this.variant) },
          `the record's variant ${short(this.variant)} is not a race variant, ` +
          "so the rules cannot check its rolls");
      }
    } else if (event.type === "opening") {
      this.opening(event, dice, said);
    } else {
      this.rolled(event, dice, said);
    }
    return found;
  }

  opening(event, dice, said) {
    const decided = openingOf(this.rules, dice);
    if (pyRepr(event.starter) !== pyRepr(decided.starter)) {
      said("opening_starter", { expected: decided.starter, got: sideVar(event.starter) },
        `the opening roll decides ${who(decided.starter)} starts ` +
        `but the record says ${who(event.starter)}`);
    }
    const seat = Object.hasOwn(event, "white_seat") ? event.white_seat : 0;
    const wanted = Object.hasOwn(decided, "white_seat") ? decided.white_seat : 0;
    if (pyRepr(seat) !== pyRepr(wanted)) {
      said("opening_white_seat", { expected: wanted, got: short(seat) },
        `the opening roll gives White seat ${wanted} but the record says ${short(seat)}`);
    }
    if (pyRepr(event.first_dice) !== pyRepr(decided.first_dice)) {
      const [expected, got] = [pyRepr(decided.first_dice), short(event.first_dice)];
      said("opening_first_dice", { expected, got },
        `the opening roll gives first dice ${expected} but the record says ${got}`);
    }
  }

  rolled(event, dice, said) {
    const side = event.side;
    const firstTurn = typeof side !== "string" || !this.played.has(side);
    if (this.rules.doublesChain && dice[0] === dice[1] && firstTurn) {
      if (event.ignored !== "RB-8") {
        said("ignored_missing", { dice: pyRepr(dice) },
          `dice ${pyRepr(dice)} are a double on a first turn, which RB-8 ignores, ` +
          "but the record plays them");
      }
    } else if (Object.hasOwn(event, "ignored")) {
      said("ignored_wrong", { dice: pyRepr(dice) },
        `dice ${pyRepr(dice)} are marked ignored, but only a double on a side's ` +
        "first turn in Russian backgammon is ignored (RB-8)");
    }
  }
}

// --- the audit: one walk over a log (verify_events' _Audit) -----------------------------

/** Where an event sits: `event 5 (seq 5)`, as the CLI names it. */
export function whereText(index, seq) {
  return seq === null ? `event ${index}` : `event ${index} (seq ${seq})`;
}

class Audit {
  constructor(rules = null) {
    this.rules = rules; // what the game's rules decide with the dice (RaceDiceRules), or null
    this.commit = null;
    this.commitAt = null; // {index, seq} of the event that published this.commit
    this.lastRoll = 0;
    this.revealed = new Map();
    this.rolls = [];
    this.issues = [];
  }

  problem(at, roll, code, vars, text) {
    const where = at.index === null ? null : whereText(at.index, at.seq); // null: the record
    const issue = {
      index: at.index, seq: at.seq, roll, code, vars,
      text: where === null ? text
        : roll === null ? `${where}: ${text}` : `${where}: roll ${roll}: ${text}`,
    };
    this.issues.push(issue);
    return issue;
  }

  async see(index, event) {
    const at = { index, seq: null };
    if (!isObject(event)) {
      this.problem(at, null, "event_not_object", { kind: kind(event) },
        `must be a JSON object, not ${kind(event)}`);
      return;
    }
    if (isWhole(event.seq)) at.seq = event.seq;
    if (Object.hasOwn(event, "dice") || Object.hasOwn(event, "proof")) await this.roll(at, event);
    if (Object.hasOwn(event, "next_commit")) this.publish(at, event.next_commit);
    if (this.rules !== null) this.rules.see(event);
  }

  async roll(at, event) {
    const published = this.commit;
    const publishedAt = this.commitAt;
    this.commit = null; // a commitment serves one roll only
    const entry = {
      index: at.index, seq: at.seq, where: whereText(at.index, at.seq),
      type: typeof event.type === "string" ? event.type : null,
      roll: null, nonce: null, seed: null, commit: null,
      published, publishedAt,
      dice: Object.hasOwn(event, "dice") ? event.dice : null,
      recomputed: null, ok: true, problem: null, problems: [], issues: [],
    };
    this.rolls.push(entry);
    const flag = (issue) => {
      entry.ok = false;
      entry.issues.push(issue);
      entry.problems.push(issue.text);
    };
    if (!Object.hasOwn(event, "proof")) {
      this.lastRoll += 1;
      flag(this.problem(at, null, "no_proof", {}, "dice without a proof"));
      return this.finish(entry);
    }
    let proof;
    try {
      proof = readProof(event.proof);
    } catch (error) {
      if (!(error instanceof DiceError)) throw error;
      this.lastRoll += 1;
      flag(this.problem(at, null, error.code, error.vars, error.message));
      return this.finish(entry);
    }
    Object.assign(entry, { roll: proof.roll, nonce: proof.nonce, seed: proof.seed,
      commit: proof.commit });
    if (proof.roll !== this.lastRoll + 1) {
      flag(this.lastRoll
        ? this.problem(at, null, "roll_order", { roll: proof.roll, last: this.lastRoll },
          `roll ${proof.roll} follows roll ${this.lastRoll}`)
        : this.problem(at, null, "roll_first", { roll: proof.roll },
          `roll ${proof.roll} is the first roll; rolls count from 1`));
    }
    const said = (code, vars, text) => flag(this.problem(at, proof.roll, code, vars, text));
    const seedCommit = await commitment(hexToBytes(proof.seed));
    if (published === null) {
      said("no_commitment", {}, "no commitment was published before it");
      if (seedCommit !== proof.commit) {
        said("seed_vs_own_commit", {}, "seed does not match the commitment in its proof");
      }
    } else {
      if (proof.commit !== published) {
        said("commit_mismatch",
          { named: proof.commit.slice(0, 12), published: published.slice(0, 12), at: publishedAt },
          `proof names commitment ${proof.commit.slice(0, 12)}… but ${published.slice(0, 12)}… ` +
          `was published before it (${whereText(publishedAt.index, publishedAt.seq)})`);
      }
      if (seedCommit !== published) {
        said("seed_vs_published", {}, "seed does not match the commitment published before it");
      }
    }
    if (this.revealed.has(proof.seed)) {
      const first = this.revealed.get(proof.seed);
      said("seed_reused", { roll: first },
        `seed was already revealed with roll ${first}, so it was known before this roll`);
    }
    const count = this.rules !== null ? this.rules.diceCount(event) : null;
    const dice = event.dice;
    if (!Object.hasOwn(event, "dice")) {
      said("proof_without_dice", {}, "proof without dice");
    } else if (!isDice(dice)) {
      said("bad_dice", { max: MAX_DICE, value: short(dice) },
        `dice must be a list of 1 to ${MAX_DICE} whole numbers, not ${short(dice)}`);
    } else {
      entry.recomputed = await deriveDice(proof.seed, proof.nonce, proof.roll, count ?? dice.length);
      const derived = pyRepr(entry.recomputed);
      if (entry.recomputed.length !== dice.length) {
        said("dice_count", { dice: pyRepr(dice), kind: short(event.type), count, derived },
          `dice ${pyRepr(dice)} but ${short(event.type)} events roll ${count} dice; ` +
          `the seed gives ${derived}`);
      } else if (entry.recomputed.some((die, i) => die !== dice[i])) {
        said("dice_mismatch", { dice: pyRepr(dice), derived },
          `dice ${pyRepr(dice)} but the seed gives ${derived}`);
      }
    }
    if (count !== null) {
      const seedDice = entry.recomputed && entry.recomputed.length === count
        ? entry.recomputed : await deriveDice(proof.seed, proof.nonce, proof.roll, count);
      for (const { code, vars, text } of this.rules.problems(event, seedDice)) said(code, vars, text);
    }
    this.lastRoll = proof.roll;
    if (!this.revealed.has(proof.seed)) this.revealed.set(proof.seed, proof.roll);
    return this.finish(entry);
  }

  finish(entry) {
    const prefix = `${entry.where}: `;
    entry.problem = entry.problems.length
      ? entry.problems.map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p)).join("; ")
      : null;
    return entry;
  }

  publish(at, value) {
    if (!isHex64(value)) {
      this.commit = null;
      this.problem(at, null, "bad_next_commit", {}, "next_commit must be 64 lowercase hex digits");
      return;
    }
    if (this.commit !== null && value !== this.commit) {
      this.problem(at, null, "commit_replaced", { roll: this.lastRoll + 1, at: this.commitAt },
        `next_commit replaces the commitment for roll ${this.lastRoll + 1} ` +
        `(${whereText(this.commitAt.index, this.commitAt.seq)}) before that roll was made`);
    }
    if (value !== this.commit) {
      this.commit = value;
      this.commitAt = at;
    }
  }
}

function verdict(audit, extra = {}) {
  return {
    honest: audit.issues.length === 0,
    rollsChecked: audit.rolls.length,
    rolls: audit.rolls,
    problems: audit.issues.map((issue) => issue.text),
    issues: audit.issues,
    error: null,
    noDice: false,
    ...extra,
  };
}

/**
 * Recompute every roll of an event log, in order (verify_events). Never throws on
 * bad events: they are problems. Throws NoWebCrypto where Web Crypto is missing.
 */
export async function verifyEvents(events, rules = null) {
  const audit = new Audit(rules);
  for (const [index, event] of Array.from(events).entries()) await audit.see(index, event);
  return verdict(audit);
}

function unreadable(code, vars, text) {
  return {
    honest: false, rollsChecked: 0, rolls: [], problems: [text],
    issues: [{ index: null, seq: null, roll: null, code, vars, text }],
    error: { code, vars, message: text }, noDice: false,
  };
}

/**
 * Check a decoded `sheshbesh-record/1` record (a game or a match) the way
 * `sheshbesh verify-dice` does (record.verify_dice): the record's created event
 * commits to roll 1, then its events follow, checked against the race rules
 * (RaceDiceRules); a draughts record has no dice, and one with rolls is not honest. Returns
 * {honest, rolls: [{index, roll, where, dice, recomputed, ok, problem, …}], problems,
 *  issues, rollsChecked, error, noDice, game}.
 */
export async function verifyRecord(record) {
  if (!isObject(record)) {
    return unreadable("record_not_object", { kind: kind(record) },
      `the record must be a JSON object, not ${kind(record)}`);
  }
  if (record.format !== FORMAT) {
    return unreadable("not_a_record", { format: FORMAT },
      `not a sheshbesh record (expected format '${FORMAT}')`);
  }
  if (!isObject(record.created) || !Array.isArray(record.events)) {
    return unreadable("record_incomplete", {}, "a record needs 'created' and 'events'");
  }
  const game = typeof record.game === "string" ? record.game : null;
  const audit = new Audit(new RaceDiceRules());
  const events = [record.created, ...record.events];
  for (const [index, event] of events.entries()) await audit.see(index, event);
  if (game === "draughts") {
    if (!audit.rolls.length) return { ...verdict(new Audit()), noDice: true, game };
    const at = { index: null, seq: null }; // the record itself, not one of its events
    audit.problem(at, null, "draughts_rolls", {},
      "record kind 'draughts' has rolls, but draughts is played without dice");
  }
  return { ...verdict(audit), game };
}
