// The backgammon-family board (issue 6): draws the server's race `state` as SVG and turns
// clicks, drags and keys on points, the bar and the trays into the `move` actions that
// `legal` lists (one step at a time, BF-10). It never decides what is legal: a checker
// can be picked up only where a legal action starts, and put down only where one ends.
//
// Layout: every seat sees its own point 1 in the bottom right corner and its route running
// counterclockwise (BF-4: "a client may rotate or mirror the board so that the viewer's
// home is bottom right"). With the opposite mapping Black's view is White's turned upside
// down, with the diagonal one it is turned half way round (the heads stay on opposite
// corners), and with the shared mapping of Russian backgammon both seats see the same.
// A player who learnt the game with his home on the left has the whole field mirrored
// (`mirror`, his setting), and anyone may turn the board round to the other seat (`flip`).
//
// Motion (issue 17): after a redraw the checkers that moved since the last one slide from
// where they were (board/motion.js), and the last play of the game stays marked, from its
// points to where it ended, until the next play.

import { s, clear } from "../dom.js";
import { number, t } from "../i18n.js";
import { DIE, die, usedDice } from "./dice.js";
import { fitStrips, focusedKey, shine } from "./geometry.js";
import { BoardInput } from "./input.js";
import { Flights, HIT_MS, reducedMotion, SLIDE_MS, STAGGER_MS } from "./motion.js";
import { diffRace } from "./race-diff.js";
import {
  BW, COL, D, drawFrame, FIELD_H, HALF, HIT_H, MID, P, R, slotX, stackY, STRIP, TRI, VH, VW,
  X_BAR, X_FIELD, X_LEFT, X_RIGHT, Y_BOTTOM, Y_FIELD,
} from "./race-layout.js";
import { mappingOf, onBoard, other, parseRace, toAbsolute, WITH_BAR } from "./race-position.js";
import { colourName, SHARED, tr as translate, trPlural } from "./words.js";

// English for this board's own keys (words.js has the shared ones), shown while a catalog lacks one.
const EN = {
  ...SHARED,
  "board.to_answer": "To answer",
  "board.pips_of.one": "{n} pip",
  "board.pips_of.other": "{n} pips",
  "board.off_of": "{n} off",
  "board.point": "Point {n}",
  "board.bar": "Bar",
  "board.tray": "{colour} borne off",
  "board.new": "{colour} not yet entered",
  "board.white_checkers.one": "{n} white checker",
  "board.white_checkers.other": "{n} white checkers",
  "board.black_checkers.one": "{n} black checker",
  "board.black_checkers.other": "{n} black checkers",
  "board.pinned_white": "a pinned white checker under them",
  "board.pinned_black": "a pinned black checker under them",
  "board.courier": "the courier",
  "board.cube": "Doubling cube at {value}",
  "board.cube_owner": "Doubling cube at {value}, {colour}'s",
  "board.cube_offered": "Doubling cube offered at {value}",
  "board.dice": "Dice: {dice}",
  "board.roll": "Roll the dice",
  "board.cancel": "Cancel",
  "board.race_summary": "{variant}. White: {white_pips}, {white_off} borne off. "
    + "Black: {black_pips}, {black_off} borne off. {status}",
};

const tr = (key, vars = {}) => translate(key, vars, EN);
const pipsText = (n) => trPlural("board.pips_of", n, { n: number(n) }, EN);

export class RaceBoard extends BoardInput {
  constructor(host, { onAction } = {}) {
    super(host, onAction, "race");
    this.state = null;
    this.flights = new Flights(this.root);
    this.drawn = null;  // what the last render showed: {board, text, viewer, mirror, variant}
  }

  destroy() {
    this.flights.finish();
    super.destroy();
  }

  update({ state, legal = null, you = null, flip = false, mirror = false } = {}) {
    const focused = focusedKey(this.svg);
    this.flights.finish();
    this.dropTouchTargets();
    this.press = null;
    this.drag = null;
    this.selected = null;
    this.targets = new Map();
    this.state = state || null;
    if (!this.state) {
      clear(this.root);
      this.svg = null;
      return;
    }
    this.variant = state.variant;
    this.mapping = mappingOf(state.variant);
    this.spectator = you === null || you === undefined;
    const seat = this.spectator || you === state.white_seat ? "W" : "B";
    this.viewer = flip ? other(seat) : seat;
    this.mirror = Boolean(mirror);
    this.board = parseRace(state.board || state.position);
    this.mover = state.turn || this.board.turn;
    const actions = Array.isArray(legal) ? legal.filter(Boolean) : [];
    this.moves = actions.filter((a) => a.type === "move" && Number.isInteger(a.from) && Number.isInteger(a.to));
    this.canRoll = actions.some((a) => a.type === "roll");
    this.sources = new Map();
    for (const action of this.moves) {
      const key = this.keyOf(action.from, "from");
      if (!this.sources.has(key)) this.sources.set(key, []);
      this.sources.get(key).push(action);
    }
    this.render();
    this.animate();
    if (focused) this.focus(focused);
  }

  /** An x of the field as the viewer sees it: the whole field mirrored for a home on the left. */
  mx(x) {
    return this.mirror ? VW - x : x;
  }

  /** A side column's left edge as drawn (the columns trade places in a mirror). */
  column(x) {
    return this.mirror ? VW - x - COL : x;
  }

  /** A slot's centre as drawn. */
  sx(slot) {
    return this.mx(slotX(slot));
  }

  // --- reading the state -----------------------------------------------------------------------

  /** The target key of one of the mover's own points in an action (25 bar or unentered, 0 off). */
  keyOf(own, end) {
    const mover = this.board[this.mover];
    if (own === 25) {
      if (end === "from" && this.mapping === "shared" && !mover.bar && mover.waiting) return `new${this.mover}`;
      return "bar";
    }
    if (own === 0) return `off${this.mover}`;
    return `p${toAbsolute(this.mapping, this.mover, own)}`;
  }

  slotOf(a) {
    return toAbsolute(this.mapping, this.viewer, a) - 1;
  }

  ownOf(side, a) {
    return toAbsolute(this.mapping, side, a);
  }

  pips(side) {
    const checkers = this.board[side];
    let total = 25 * (checkers.bar + checkers.waiting);
    for (let a = 1; a <= 24; a++) total += checkers.points[a] * this.ownOf(side, a);
    for (const a of checkers.pinned) total += this.ownOf(side, a);
    return total;
  }

  borneOff(side) {
    const checkers = this.board[side];
    return Math.max(0, 15 - onBoard(checkers) - checkers.bar - checkers.waiting);
  }

  /** Jacquet's courier (JQ-5, drawn distinctly as JQ-11 allows): the one checker off the start, on its way. */
  courier(side) {
    if (this.variant !== "jacquet") return null;
    const points = this.board[side].points;
    const start = toAbsolute(this.mapping, side, 24);
    if (points[start] !== 14) return null;
    for (let a = 1; a <= 24; a++) {
      if (a !== start && points[a] === 1 && this.ownOf(side, a) > 6) return a;
    }
    return null;
  }

  actingSide() {
    if (this.state.phase === "finished" || this.state.result) return null;
    return this.state.to_act || (this.state.phase === "opening" ? null : this.mover);
  }

  cubeShown() {
    const options = this.state.options || {};
    return Boolean(this.state.cube && options.cube && !options.crawford);
  }

  // --- drawing -------------------------------------------------------------------------------

  render() {
    this.tops = new Map();
    this.places = new Map();
    const viewer = this.viewer;
    const svg = s("svg", {
      viewBox: `0 0 ${VW} ${VH}`, class: `sb-svg sb-variant-${this.variant}`, role: "group",
      "aria-label": this.summary(),
    });
    svg.append(s("defs", {}, shine(`${this.uid}-shine`)));
    const base = s("g", { class: "sb-base" });
    const last = s("g", { class: "sb-last-move" });
    const pieces = s("g", { class: "sb-pieces" });
    this.flyLayer = s("g", { class: "sb-flying" });
    this.under = s("g", { class: "sb-marks" });
    this.marks = s("g", { class: "sb-marks" });
    this.hits = s("g", { class: "sb-hits" });
    this.dragLayer = s("g", { class: "sb-drag" });
    svg.append(base, last, this.under, pieces, this.flyLayer, this.marks, this.hits, this.dragLayer);
    drawFrame(base, this.mirror);

    for (let a = 1; a <= 24; a++) this.drawPoint(pieces, a);
    if (WITH_BAR.has(this.variant)) this.drawBar(pieces);
    this.drawTray(pieces, viewer, this.column(X_RIGHT), false);
    this.drawTray(pieces, other(viewer), this.column(this.mapping === "diagonal" ? X_LEFT : X_RIGHT), true);
    if (this.variant === "russian_backgammon") {
      this.drawWaiting(pieces, viewer, false);
      this.drawWaiting(pieces, other(viewer), true);
    }
    if (this.cubeShown()) this.drawCube(pieces);
    this.drawDice(pieces);
    this.drawStrip(base, other(viewer), true);
    this.drawStrip(base, viewer, false);
    this.drawLastPlay(last);
    this.drawHits();

    this.listen(svg);
    if (this.svg && this.svg.parentNode === this.root) this.svg.replaceWith(svg);
    else clear(this.root).append(svg);
    this.svg = svg;
    fitStrips(svg);
  }

  drawPoint(g, a) {
    const slot = this.slotOf(a);
    const x = this.sx(slot);
    const { W, B } = this.board;
    const pinned = W.pinned.has(a) ? "W" : B.pinned.has(a) ? "B" : null;
    const colour = W.points[a] ? "W" : B.points[a] ? "B" : null;
    const count = colour ? this.board[colour].points[a] : 0;
    let lift = 0;
    if (pinned) {
      g.append(this.checker(x, stackY(slot, 0), pinned, { cls: "sb-pinned", at: [`p${a}`, 0] }));
      lift = 0.55;
    }
    const room = pinned ? 4 : 5;
    const shown = Math.min(count, room);
    const couriers = [this.courier("W"), this.courier("B")];
    let top = null;
    for (let k = 0; k < shown; k++) {
      const label = k === shown - 1 && count > shown ? count : null;
      const courier = count === 1 && couriers.includes(a);
      top = this.checker(x, stackY(slot, k + lift), colour,
        { label, cls: courier ? "sb-courier" : "", at: [`p${a}`, k] });
      g.append(top);
    }
    if (top && colour === this.mover) this.tops.set(`p${a}`, top);
    const contents = [];
    if (colour) contents.push(checkerCount(colour, count));
    if (pinned) contents.push(tr(pinned === "W" ? "board.pinned_white" : "board.pinned_black"));
    if (colour && count === 1 && couriers.includes(a)) contents.push(tr("board.courier"));
    const top12 = slot >= 12;
    this.places.set(`p${a}`, {
      place: tr("board.point", { n: slot + 1 }), contents,
      rect: { x: x - P / 2, y: top12 ? Y_FIELD : Y_BOTTOM - HIT_H, width: P, height: HIT_H },
      landing: { x, y: stackY(slot, Math.min(this.moverCountAt(a) + lift, 4.55)) },
      shape: `${x - P / 2 + 1},${top12 ? Y_FIELD : Y_BOTTOM} ${x + P / 2 - 1},${top12 ? Y_FIELD : Y_BOTTOM} ${x},${top12 ? Y_FIELD + TRI : Y_BOTTOM - TRI}`,
      order: 100 - (slot + 1),
    });
  }

  moverCountAt(a) {
    return this.board[this.mover].points[a];
  }

  drawBar(g) {
    const x = X_BAR + BW / 2;
    const contents = [];
    // The viewer's checkers wait on the upper half, next to where they enter; the opponent's below.
    for (const [side, up] of [[this.viewer, true], [other(this.viewer), false]]) {
      const count = this.board[side].bar;
      if (!count) continue;
      const shown = Math.min(count, 4);
      let top = null;
      for (let k = 0; k < shown; k++) {
        const y = up ? MID - 32 - R - k * D : MID + 32 + R + k * D;
        top = this.checker(x, y, side, { label: k === shown - 1 && count > shown ? count : null, at: ["bar", k] });
        g.append(top);
      }
      if (side === this.mover) this.tops.set("bar", top);
      contents.push(checkerCount(side, count));
    }
    const up = this.mover === this.viewer;
    this.places.set("bar", {
      place: tr("board.bar"), contents,
      rect: { x: X_BAR, y: Y_FIELD, width: BW, height: FIELD_H },
      landing: { x, y: up ? MID - 32 - R : MID + 32 + R },
      order: 0,
    });
  }

  /** Borne-off checkers, drawn edge-on as in a real tray, the count beside them. */
  drawTray(g, side, columnX, upper) {
    const count = this.borneOff(side);
    const x = columnX + 8;
    const width = COL - 16;
    const box = upper
      ? { x: columnX + 4, y: Y_FIELD + 4, width: COL - 8, height: FIELD_H / 2 - 8 }
      : { x: columnX + 4, y: MID + 4, width: COL - 8, height: FIELD_H / 2 - 8 };
    g.append(s("rect", { ...box, rx: 5, class: "sb-tray" }));
    for (let k = 0; k < count; k++) {
      const y = upper ? Y_FIELD + 10 + k * 13 : Y_BOTTOM - 10 - 11 - k * 13;
      g.append(s("rect", { x, y, width, height: 11, rx: 3, class: `sb-slab sb-${side}`,
        "data-at": `${side}:off:${k}` }));
    }
    if (count) {
      const y = upper ? Y_FIELD + 10 + count * 13 + 24 : Y_BOTTOM - 10 - count * 13 - 10;
      g.append(s("text", { x: columnX + COL / 2, y, class: "sb-tray-count" }, number(count)));
    }
    const key = `off${side}`;
    this.places.set(key, {
      place: tr("board.tray", { colour: colourName(side) }), contents: [String(count)],
      rect: box, landing: null, order: 200 + (upper ? 1 : 0),
    });
  }

  /** Russian backgammon's checkers not yet entered (RB-2), beside the board on the left. */
  drawWaiting(g, side, upper) {
    const count = this.board[side].waiting;
    const x = this.mx(X_LEFT + COL / 2);
    const shown = Math.min(count, 5);
    let top = null;
    for (let k = 0; k < shown; k++) {
      const y = upper ? Y_FIELD + 10 + R + k * D : Y_BOTTOM - 10 - R - k * D;
      top = this.checker(x, y, side, { label: k === shown - 1 && count > shown ? count : null, at: ["new", k] });
      g.append(top);
    }
    const key = `new${side}`;
    if (top && side === this.mover) this.tops.set(key, top);
    this.places.set(key, {
      place: tr("board.new", { colour: colourName(side) }), contents: [String(count)],
      rect: upper
        ? { x: x - COL / 2, y: Y_FIELD, width: COL, height: FIELD_H / 2 }
        : { x: x - COL / 2, y: MID, width: COL, height: FIELD_H / 2 },
      landing: null, order: 1,
    });
  }

  drawCube(g) {
    const { value, owner } = this.state.cube;
    const size = 48;
    let x = this.mx(X_LEFT + COL / 2);
    let y = !owner ? MID : owner === this.viewer ? Y_BOTTOM - 44 : Y_FIELD + 44;
    let face = !owner && value === 1 ? 64 : value;
    let label = owner
      ? tr("board.cube_owner", { value, colour: colourName(owner) })
      : tr("board.cube", { value });
    if (this.state.phase === "doubled") {
      // The doubler turns the cube to the next value and hands it over: it waits in the
      // middle of the half of the player who must take or drop (BG-12).
      face = value * 2;
      x = this.mx(this.state.to_act === this.viewer ? X_BAR + BW + HALF / 2 : X_FIELD + HALF / 2);
      y = MID;
      label = tr("board.cube_offered", { value: face });
    }
    g.append(s("g", { class: `sb-cube${this.state.phase === "doubled" ? " is-offered" : ""}` },
      s("title", {}, label),
      s("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 8, class: "sb-cube-face" }),
      s("text", { x, y: y + 9, class: "sb-cube-value" }, String(face))));
  }

  drawDice(g) {
    const dice = this.state.dice;
    const roller = dice ? this.mover : this.state.to_act;
    const cx = this.mx(roller === this.viewer ? X_BAR + BW + HALF / 2 : X_FIELD + HALF / 2);
    let faces;
    let used = [];
    if (Array.isArray(dice) && dice.length === 2) {
      const [d1, d2] = dice;
      faces = d1 === d2 ? [d1, d1, d1, d1] : [d1, d2];
      used = usedDice(faces, this.state.steps || [], d1 === d2);
    } else if (this.canRoll) {
      faces = [0, 0];
    } else {
      return;
    }
    const gap = 10;
    const width = faces.length * DIE + (faces.length - 1) * gap;
    // Dice that were not on the board a moment ago tumble in (CSS, off for reduced motion).
    const fresh = faces[0] && this.drawn && !sameDice(this.drawn.dice, dice);
    const group = s("g", { class: `sb-dice sb-${roller || this.mover}${fresh ? " is-rolling" : ""}` });
    faces.forEach((face, i) => {
      const x = cx - width / 2 + i * (DIE + gap);
      group.append(die(x, MID - DIE / 2, face, used[i]));
    });
    g.append(group);
    const label = faces[0] ? tr("board.dice", { dice: dice.join("-") }) : tr("board.roll");
    this.places.set("dice", {
      place: label, contents: [],
      rect: { x: cx - width / 2 - 6, y: MID - DIE / 2 - 6, width: width + 12, height: DIE + 12 },
      landing: null, order: 300, roll: this.canRoll,
    });
  }

  drawStrip(g, side, upper) {
    const y = upper ? 0 : VH - STRIP;
    const base = y + STRIP / 2 + 8;
    const you = !this.spectator && side === this.viewer;
    const flag = this.flagOf(side, you, upper);
    const pips = this.pips(side);
    const strip = s("g", { class: "sb-strip" });
    if (flag) strip.append(s("rect", { x: 4, y: y + 6, width: VW - 8, height: STRIP - 12, rx: 10, class: "sb-strip-active" }));
    strip.append(
      s("circle", { cx: 34, cy: y + STRIP / 2, r: 14, class: `sb-strip-disc sb-${side}` }),
      s("text", { x: 58, y: base, class: "sb-strip-name" },
        you ? `${colourName(side)} (${tr("board.you")})` : colourName(side)),
      s("text", { x: VW * 0.37, y: base, class: "sb-strip-info" }, pipsText(pips)),
      s("text", { x: VW * 0.56, y: base, class: "sb-strip-info sb-strip-optional" },
        tr("board.off_of", { n: number(this.borneOff(side)) })),
    );
    if (flag) strip.append(s("text", { x: VW - 24, y: base, class: "sb-strip-flag" }, flag));
    g.append(strip);
  }

  /** What a player's strip says on its right: whose turn it is, or who won. */
  flagOf(side, you, upper) {
    const result = this.state.result;
    if (result) {
      if (result.winner === side) return tr("board.wins", { colour: colourName(side) });
      return !result.winner && !upper ? tr("board.draw") : null;
    }
    if (this.actingSide() !== side) return null;
    if (you) return tr("board.your_turn");
    const answering = ["doubled", "beavered", "resigning"].includes(this.state.phase);
    return tr(answering ? "board.to_answer" : "board.to_move");
  }

  checker(x, y, colour, { label = null, cls = "", at = null } = {}) {
    const g = s("g", { class: `sb-checker sb-${colour} ${cls}`.trim(), "data-at": at ? `${colour}:${at[0]}:${at[1]}` : null },
      s("circle", { cx: x, cy: y, r: R - 1, class: "sb-checker-body" }),
      s("circle", { cx: x, cy: y, r: R * 0.62, class: "sb-checker-ring" }),
      s("circle", { cx: x, cy: y, r: R - 1, class: "sb-checker-shine", fill: `url(#${this.uid}-shine)` }));
    if (label !== null) g.append(s("text", { x, y: y + 8, class: "sb-count" }, number(label)));
    return g;
  }

  // --- motion and the last play ------------------------------------------------------------

  /** Where the k-th checker (from the edge) of `side` at `location` is drawn, or null. */
  spot(side, location, k) {
    const el = this.svg && this.svg.querySelector(`[data-at="${side}:${location}:${k}"]`);
    if (!el) return null;
    if (el.tagName === "rect") {  // a slab in the tray
      return { el, x: Number(el.getAttribute("x")) + Number(el.getAttribute("width")) / 2,
        y: Number(el.getAttribute("y")) + 5 };
    }
    const body = el.querySelector(".sb-checker-body");
    return { el, x: Number(body.getAttribute("cx")), y: Number(body.getAttribute("cy")) };
  }

  /** The top drawn checker of a location in `board` (its index), as `spot` counts them. */
  topIndex(board, side, location) {
    const checkers = board[side];
    if (location === "bar") return Math.min(checkers.bar, 4) - 1;
    if (location === "new") return Math.min(checkers.waiting, 5) - 1;
    if (location === "off") return Math.max(0, 15 - onBoard(checkers) - checkers.bar - checkers.waiting) - 1;
    const n = Number(location.slice(1));
    if (checkers.pinned.has(n)) return 0;  // a pinned checker is alone under its pinner
    return Math.min(checkers.points[n], board[other(side)].pinned.has(n) ? 4 : 5) - 1;
  }

  /**
   * Slide what moved since the last render: one step as the opponent enters it, a whole play
   * (a bot's, one typed in) one checker after another, a hit checker to the bar after its
   * hitter lands. Nothing slides on the first drawing, for another seat's view or a mirror.
   */
  animate() {
    const was = this.drawn;
    const text = this.state.board || this.state.position;
    this.drawn = { board: this.board, text, viewer: this.viewer, mirror: this.mirror,
      variant: this.variant, dice: this.state.dice };
    this.changes = null;
    if (!was || was.text === text || was.variant !== this.variant) return;
    const moves = diffRace(this.mapping, was.board, this.board);
    if (!moves.length || moves.length > 8) return;  // a new game, not a play
    // What moved, for the room's sounds (whatever the motion setting).
    this.changes = { moves: moves.length, hit: moves.some((m) => m.hit) };
    if (was.viewer !== this.viewer || was.mirror !== this.mirror || reducedMotion()) return;
    const placed = new Map();  // location -> how many arrived there already (the top comes last)
    let delay = 0;
    const landed = new Map();  // point -> when its hitter lands
    for (const move of moves) {
      const key = `${move.side}:${move.to}`;
      const arrived = placed.get(key) || 0;
      placed.set(key, arrived + 1);
      const at = this.topIndex(this.board, move.side, move.to) - arrived;
      const to = this.spot(move.side, move.to, Math.max(0, at));
      const from = this.spotBefore(was.board, move.side, move.from);
      if (!to || !from) continue;
      const copy = this.checker(from.x, from.y, move.side, { cls: "sb-flyer" });
      let start = delay;
      if (move.hit) start = (landed.get(move.from) ?? delay) + SLIDE_MS * 0.6;
      else delay += STAGGER_MS;
      landed.set(move.to, start + SLIDE_MS);
      this.flights.fly(this.flyLayer, copy, [from, to], {
        delay: start, leg: move.hit ? HIT_MS : SLIDE_MS, hidden: to.el,
      });
    }
  }

  /** Where a location's top checker stood in the board drawn before (same geometry). */
  spotBefore(board, side, location) {
    const k = Math.max(0, this.topIndex(board, side, location));
    if (location === "off") {
      const upper = side !== this.viewer;
      return { x: this.column(upper && this.mapping === "diagonal" ? X_LEFT : X_RIGHT) + COL / 2,
        y: upper ? Y_FIELD + 10 + k * 13 : Y_BOTTOM - 10 - 6 - k * 13 };
    }
    if (location === "bar") {
      const up = side === this.viewer;
      return { x: X_BAR + BW / 2, y: up ? MID - 32 - R - k * D : MID + 32 + R + k * D };
    }
    if (location === "new") {
      const upper = side !== this.viewer;
      return { x: this.mx(X_LEFT + COL / 2), y: upper ? Y_FIELD + 10 + R + k * D : Y_BOTTOM - 10 - R - k * D };
    }
    const n = Number(location.slice(1));
    const slot = this.slotOf(n);
    const lift = board[other(side)].pinned.has(n) ? 0.55 : 0;
    return { x: this.sx(slot), y: stackY(slot, k + lift) };
  }

  /** The game's last play stays marked until the next: its points tinted, from → to. */
  drawLastPlay(g) {
    this.root.dataset.last = "";
    const last = this.state.last;
    if (!last || !last.before) return;
    let before;
    try {
      before = parseRace(last.before);
    } catch {
      return;
    }
    const after = parseRace(this.state.position);
    const moves = diffRace(this.mapping, before, after).filter((m) => m.side === last.side);
    const marked = new Set();
    for (const move of moves) {
      for (const location of [move.from, move.to]) {
        if (marked.has(location) || !location.startsWith("p")) continue;
        marked.add(location);
        const slot = this.slotOf(Number(location.slice(1)));
        const x = this.sx(slot);
        const top = slot >= 12;
        const edge = top ? Y_FIELD : Y_BOTTOM;
        const tip = top ? Y_FIELD + TRI : Y_BOTTOM - TRI;
        g.append(s("polygon", {
          points: `${x - P / 2 + 1},${edge} ${x + P / 2 - 1},${edge} ${x},${tip}`,
          class: `sb-last${location === move.from ? " sb-last-from" : ""}`,
          "data-last": location,
        }));
      }
    }
    this.root.dataset.last = [...marked].join(" ");
  }

  summary() {
    const result = this.state.result;
    let status;
    if (result) status = result.winner ? tr("board.wins", { colour: colourName(result.winner) }) : tr("board.draw");
    else status = this.actingSide() ? tr("board.plays", { colour: colourName(this.actingSide()) }) : "";
    return tr("board.race_summary", {
      variant: t(`variant.${this.variant}`),
      white_pips: pipsText(this.pips("W")), white_off: this.borneOff("W"),
      black_pips: pipsText(this.pips("B")), black_off: this.borneOff("B"), status,
    }).trim();
  }

  // --- targets: what can be clicked, tapped, dragged onto, or reached with the keyboard --------

  drawHits() {
    const entries = [...this.places.entries()].sort((a, b) => a[1].order - b[1].order);
    for (const [key, place] of entries) {
      const rect = s("rect", {
        ...place.rect, class: "sb-hit", tabindex: 0, role: "button", "data-key": key,
        "aria-label": this.labelOf(key),
      });
      if (key.startsWith("p")) {
        const a = Number(key.slice(1));
        rect.setAttribute("data-point", String(this.slotOf(a) + 1));
      }
      if (this.sources.has(key)) rect.classList.add("is-source");
      if (key === "dice" && place.roll) rect.classList.add("is-roll");
      place.el = rect;
      this.hits.append(rect);
    }
  }

  labelOf(key) {
    const place = this.places.get(key);
    const contents = place.contents.length ? place.contents.join(", ") : tr("board.empty");
    let label = key === "dice" ? place.place : tr("board.label", { place: place.place, contents });
    if (this.targets.has(key)) label += ` (${tr("board.move_here")})`;
    return label;
  }

  select(key) {
    this.selected = key && this.sources.has(key) ? key : null;
    this.targets = new Map();
    if (this.selected) {
      for (const action of this.sources.get(this.selected)) {
        const target = this.keyOf(action.to, "to");
        if (!this.targets.has(target)) this.targets.set(target, action);
      }
    }
    this.showSelection();
    this.showTouchTargets((key) => this.places.get(key)?.place ?? key, tr("board.cancel"));
  }

  showSelection() {
    if (!this.svg) return;
    clear(this.under);
    clear(this.marks);
    for (const [key, place] of this.places) {
      if (!place.el) continue;
      place.el.classList.toggle("is-selected", key === this.selected);
      place.el.classList.toggle("is-target", this.targets.has(key));
      if (this.sources.has(key)) place.el.setAttribute("aria-pressed", String(key === this.selected));
      place.el.setAttribute("aria-label", this.labelOf(key));
    }
    if (!this.selected) return;
    this.mark(this.selected, "sb-mark-source");
    for (const key of this.targets.keys()) this.mark(key, "sb-mark-target");
  }

  /** Light up a place: its area under the checkers, a ring on the checker or landing spot above. */
  mark(key, cls) {
    const place = this.places.get(key);
    const area = place.shape
      ? s("polygon", { points: place.shape, class: "sb-mark-area" })
      : s("rect", { ...place.rect, rx: 6, class: "sb-mark-area" });
    this.under.append(s("g", { class: cls }, area));
    const top = this.tops.get(key);
    if (cls === "sb-mark-source" && top) {
      const body = top.firstChild;
      this.marks.append(s("g", { class: cls },
        s("circle", { cx: body.getAttribute("cx"), cy: body.getAttribute("cy"), r: R + 1, class: "sb-mark-ring" })));
    } else if (cls === "sb-mark-target" && place.landing) {
      this.marks.append(s("g", { class: cls },
        s("circle", { cx: place.landing.x, cy: place.landing.y, r: R - 3, class: "sb-mark-spot" })));
    }
  }

  activate(key) {
    if (key === "dice") {
      if (this.canRoll) this.send({ type: "roll" });
      return;
    }
    if (this.selected && this.targets.has(key)) {
      const action = this.targets.get(key);
      const move = { type: "move", from: action.from, to: action.to };
      if (action.die !== undefined) move.die = action.die;
      this.send(move);
      return;
    }
    if (this.sources.has(key) && key !== this.selected) this.select(key);
    else this.select(null);
  }

  send(action) {
    this.select(null);
    this.onAction(action);
  }

  // --- input (board/input.js): what a drag draws and where a drop goes -----------------------

  ghostFor() {
    return this.checker(0, 0, this.mover, { cls: "sb-ghost" });
  }

  dropOn(key) {
    this.activate(key);
  }
}

function checkerCount(side, n) {
  const vars = { n: number(n) };
  return side === "W"
    ? trPlural("board.white_checkers", n, vars, EN)
    : trPlural("board.black_checkers", n, vars, EN);
}

function sameDice(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
}
