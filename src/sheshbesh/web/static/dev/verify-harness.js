// Dev harness for the verify view (static/dev/verify.html): mounts views/verify.js
// with the real API client and translations, before the app shell routes to it.
// Uses the catalogs when /static/i18n/en.json exists (?lang=xx picks another);
// a key the catalog lacks falls back to the English below, which is also the list
// of every verify.* key the view uses. Open /static/dev/verify.html#/verify?game=ID
// (or ?game=ID) to check a game of the running club.

import { api } from "../js/api.js";
import * as i18n from "../js/i18n.js";
import { mount } from "../js/views/verify.js";

export const ENGLISH = {
  "verify.title": "Verify dice",
  "verify.intro": "Every roll is made from a secret server seed, locked in before the roll by " +
    "publishing its SHA-256, and the roller's nonce, through HMAC-SHA256. Each roll reveals " +
    "its seed, so your browser recomputes every roll here; nothing you paste leaves this page.",
  "verify.game_label": "Game number",
  "verify.game_placeholder": "e.g. 3f9c2a7b1d",
  "verify.open_game": "Verify game",
  "verify.paste_label": "…or paste a game record (JSON)",
  "verify.paste_placeholder": "{\"format\": \"sheshbesh-record/1\", …}",
  "verify.file_label": "Open a file",
  "verify.verify": "Verify",
  "verify.loading": "Loading the record of game {id}…",
  "verify.checking": "Recomputing every roll…",
  "verify.honest": "Honest dice",
  "verify.not_honest": "Not honest",
  "verify.honest_detail": "{rolls} recomputed from the revealed seeds: every seed matches the " +
    "commitment published before its roll, and every roll matches the dice shown.",
  "verify.not_honest_detail": "{problems} in {rolls}.",
  "verify.roll_count.one": "{count} roll",
  "verify.roll_count.other": "{count} rolls",
  "verify.problem_count.one": "{count} problem",
  "verify.problem_count.other": "{count} problems",
  "verify.source_game": "Record of game {id}, as the club serves it.",
  "verify.source_file": "Record from the file {name}.",
  "verify.source_text": "Pasted record.",
  "verify.table_caption": "Every roll of the record ({rolls})",
  "verify.col.roll": "Roll",
  "verify.col.where": "Event",
  "verify.col.nonce": "Client nonce",
  "verify.col.seed": "Revealed seed",
  "verify.col.commit": "Commitment",
  "verify.col.dice": "Dice",
  "verify.col.recomputed": "Recomputed",
  "verify.col.check": "Check",
  "verify.ok": "OK",
  "verify.bad": "Wrong",
  "verify.only_problems": "Show only rolls with a problem",
  "verify.where": "event {index} (seq {seq})",
  "verify.where_no_seq": "event {index}",
  "verify.at_roll": "{where}: roll {roll}: {problem}",
  "verify.at": "{where}: {problem}",
  "verify.in_roll": "roll {roll}: {problem}",
  "verify.no_dice": "This is a draughts game: draughts is played without dice, so there is " +
    "nothing to check.",
  "verify.no_rolls": "This record has no rolls yet, so there is nothing to check.",
  "verify.error.empty": "Paste a record, open a file or give a game number first.",
  "verify.error.no_game": "Give a game number first.",
  "verify.error.bad_game": "“{id}” is not a game number.",
  "verify.error.not_found": "There is no game {id}.",
  "verify.error.offline": "The club cannot be reached. Check your connection and try again.",
  "verify.error.load_failed": "The record of game {id} could not be loaded: {message}",
  "verify.error.read_failed": "The file {name} could not be read.",
  "verify.error.not_json": "This is not JSON: {detail}",
  "verify.error.no_crypto": "This browser cannot compute SHA-256 on this page: Web Crypto " +
    "needs HTTPS (or localhost).",
  "verify.error.failed": "The check could not finish: {detail}",
  "verify.error.record_not_object": "This is JSON but not a game record: a record is a JSON " +
    "object, not {kind}.",
  "verify.error.not_a_record": "This is JSON but not a sheshbesh game record (its format " +
    "must be {format}).",
  "verify.error.record_incomplete": "This record is incomplete: it needs “created” and " +
    "“events”.",
  "verify.problem.event_not_object": "must be a JSON object, not {kind}",
  "verify.problem.no_proof": "dice without a proof",
  "verify.problem.proof_not_object": "proof must be a JSON object, not {kind}",
  "verify.problem.proof_unknown_field": "proof has an unknown field {field}",
  "verify.problem.proof_missing_field": "proof has no '{field}'",
  "verify.problem.proof_field_type": "proof {field} must be a {expected}, not {kind}",
  "verify.problem.proof_bad_roll_number": "proof roll number must be a whole number from 1, " +
    "not {value}",
  "verify.problem.proof_nonce_type": "proof nonce must be a string, not {kind}",
  "verify.problem.proof_nonce_empty": "proof nonce is empty; give 1 to {max} printable ASCII " +
    "characters",
  "verify.problem.proof_nonce_too_long": "proof nonce is {length} characters long; at most {max}",
  "verify.problem.proof_nonce_colon": "proof nonce contains ':' at position {position}; ':' " +
    "separates the fields of the HMAC message",
  "verify.problem.proof_nonce_bad_char": "proof nonce contains {char} at position {position}; " +
    "only printable ASCII (space to '~') is allowed",
  "verify.problem.proof_bad_hex": "proof {field} must be 64 lowercase hex digits",
  "verify.problem.roll_order": "roll {roll} follows roll {last}",
  "verify.problem.roll_first": "roll {roll} is the first roll; rolls count from 1",
  "verify.problem.no_commitment": "no commitment was published before it",
  "verify.problem.seed_vs_own_commit": "seed does not match the commitment in its proof",
  "verify.problem.commit_mismatch": "proof names commitment {named}… but {published}… was " +
    "published before it ({at})",
  "verify.problem.seed_vs_published": "seed does not match the commitment published before it",
  "verify.problem.seed_reused": "seed was already revealed with roll {roll}, so it was known " +
    "before this roll",
  "verify.problem.proof_without_dice": "proof without dice",
  "verify.problem.bad_dice": "dice must be a list of 1 to {max} whole numbers, not {value}",
  "verify.problem.dice_mismatch": "dice {dice} but the seed gives {derived}",
  "verify.problem.bad_next_commit": "next_commit must be 64 lowercase hex digits",
  "verify.problem.commit_replaced": "next_commit replaces the commitment for roll {roll} " +
    "({at}) before that roll was made",
  "verify.problem.dice_count": "dice {dice} but {kind} events roll {count} dice; the seed " +
    "gives {derived}",
  "verify.problem.opening_starter": "the opening roll decides {expected} starts but the record " +
    "says {got}",
  "verify.problem.opening_white_seat": "the opening roll gives White seat {expected} but the " +
    "record says {got}",
  "verify.problem.opening_first_dice": "the opening roll gives first dice {expected} but the " +
    "record says {got}",
  "verify.problem.ignored_missing": "dice {dice} are a double on a first turn, which RB-8 " +
    "ignores, but the record plays them",
  "verify.problem.ignored_wrong": "dice {dice} are marked ignored, but only a double on a " +
    "side's first turn in Russian backgammon is ignored (RB-8)",
  "verify.problem.no_variant": "the record's variant {variant} is not a race variant, so the " +
    "rules cannot check its rolls",
  "verify.problem.draughts_rolls": "record kind 'draughts' has rolls, but draughts is played " +
    "without dice",
  "verify.nobody": "nobody",
};

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

function routeParams() {
  const hash = location.hash;
  if (hash.startsWith("#/verify?")) return new URLSearchParams(hash.slice("#/verify?".length));
  return new URLSearchParams(location.search);
}

async function keysOf(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  return response.ok ? new Set(Object.keys(await response.json())) : new Set();
}

async function start() {
  const lang = new URLSearchParams(location.search).get("lang") || "en";
  // The keys the catalogs have: those go through i18n.t, the others get the English
  // above (asking i18n.t for a missing key would warn once per table row).
  let known = new Set();
  try {
    known = new Set([...(await keysOf("en")), ...(await keysOf(lang))]);
    if (known.size) await i18n.setLanguage(lang);
  } catch {
    known = new Set();
  }
  const t = (key, vars = {}) => (known.has(key) ? i18n.t(key, vars)
    : key in ENGLISH ? fill(ENGLISH[key], vars) : key);
  const main = document.getElementById("main");
  await mount(main, { api, t, params: routeParams(), number: known.size ? i18n.number : undefined });
  document.body.dataset.ready = "true";
}

start();
