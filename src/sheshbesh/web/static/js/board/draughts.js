// The International draughts board (issue 6): draws the server's draughts `state` (an FMJD
// FEN, docs/draughts.md) on a 10×10 board and turns clicks, drags and keys into the
// `{type: "move", text}` actions that `legal` lists. Like the race board it never decides
// what is legal. When several capture routes share their start and end squares
// (47x20x3x17 and 47x24x8x17) the player picks one by clicking the route's next landing
// square or in a small chooser.
//
// Squares are numbered 1–50 from Black's side (DR-1); each seat sees its own men at the
// bottom, so Black's view is White's turned half way round, and anyone may turn the board
// round (`flip`). A new move glides its piece along its path, landing square by landing
// square, and the men it captured fade as it passes (board/motion.js).

import { h, s, clear } from "../dom.js";
import { number } from "../i18n.js";
import { movePath, parseFen, rowColumn } from "./draughts-position.js";
import { fitStrips, focusedKey, shine } from "./geometry.js";
import { BoardInput } from "./input.js";
import { Flights, reducedMotion, SLIDE_MS } from "./motion.js";
import { colourName, SHARED, tr as translate, trPlural } from "./words.js";

// English for this board's own keys (words.js has the shared ones), shown while a catalog lacks one.
const EN = {
  ...SHARED,
  "board.square": "Square {n}",
  "board.white_man": "white man",
  "board.black_man": "black man",
  "board.white_king": "white king",
  "board.black_king": "black king",
  "board.route_here": "capture route {n}",
  "board.pieces_of.one": "{n} piece",
  "board.pieces_of.other": "{n} pieces",
  "board.kings_of.one": "{n} king",
  "board.kings_of.other": "{n} kings",
  "board.last_move": "Last move {move}.",
  "board.choose_route": "Several captures end there. Which route?",
  "board.cancel": "Cancel",
  "board.draughts_summary": "Draughts. White: {white}, {white_kings}. Black: {black}, {black_kings}. {status} {last}",
};

const tr = (key, vars = {}) => translate(key, vars, EN);
const piecesText = (n) => trPlural("board.pieces_of", n, { n: number(n) }, EN);
const kingsText = (n) => trPlural("board.kings_of", n, { n: number(n) }, EN);

// --- layout (viewBox units) ------------------------------------------------------------------

const SQ = 64;
const FRAME = 22;
const STRIP = 56;
const X0 = FRAME;
const Y0 = STRIP + FRAME;
const VW = 10 * SQ + 2 * FRAME;
const VH = 10 * SQ + 2 * FRAME + 2 * STRIP;
const PIECE = 26;

export class DraughtsBoard extends BoardInput {
  constructor(host, { onAction } = {}) {
    super(host, onAction, "draughts");
    this.chooser = null;
    this.routes = null;
    this.flights = new Flights(this.root);
    this.drawn = null;  // {position, moves, viewer}: what the last render showed
  }

  destroy() {
    this.flights.finish();
    super.destroy();
  }

  busy() {
    return Boolean(this.selected || this.routes);
  }

  update({ state, legal = null, you = null, flip = false } = {}) {
    const focused = focusedKey(this.svg);
    this.flights.finish();
    this.dropTouchTargets();
    this.press = null;
    this.drag = null;
    this.selected = null;
    this.targets = new Map();
    this.routes = null;
    this.state = state || null;
    if (!this.state) {
      clear(this.root);
      this.svg = null;
      this.chooser = null;
      return;
    }
    this.spectator = you === null || you === undefined;
    const seat = this.spectator || you === (state.white_seat ?? 0) ? "W" : "B";
    this.viewer = flip ? (seat === "W" ? "B" : "W") : seat;
    this.position = parseFen(state.position);
    const actions = Array.isArray(legal) ? legal.filter(Boolean) : [];
    this.moves = actions
      .filter((a) => a.type === "move" && typeof a.text === "string")
      .map((a) => ({ text: a.text, path: movePath(a.text) }))
      .filter((m) => m.path.length >= 2);
    this.sources = new Map();
    for (const move of this.moves) {
      const key = `s${move.path[0]}`;
      if (!this.sources.has(key)) this.sources.set(key, []);
      this.sources.get(key).push(move);
    }
    this.render();
    this.animate();
    if (focused) this.focus(focused);
  }

  /**
   * The move that is new since the last render glides along its path; the men it took fade
   * behind it. Only one move on from the board drawn before, in the same view.
   */
  animate() {
    const was = this.drawn;
    const moves = Array.isArray(this.state.moves) ? this.state.moves : [];
    this.drawn = { position: this.position, moves: moves.length, viewer: this.viewer };
    this.changes = null;
    if (!was || moves.length !== was.moves + 1) return;
    const path = movePath(moves[moves.length - 1]);
    const captured = [...was.position.pieces.keys()].filter((n) => !this.position.pieces.has(n) && n !== path[0]);
    this.changes = { moves: 1, hit: captured.length > 0 };  // for the room's sounds
    if (was.viewer !== this.viewer || reducedMotion()) return;
    const end = path[path.length - 1];
    const piece = was.position.pieces.get(path[0]);
    const landed = this.tops.get(`s${end}`);
    if (path.length < 2 || !piece || !landed) return;
    const points = path.map((n) => {
      const { cx, cy } = this.cell(n);
      return { x: cx, y: cy };
    });
    this.flights.fly(this.flyLayer, this.piece(points[0].x, points[0].y, piece.colour, piece.king),
      points, { hidden: landed });
    const taken = [...was.position.pieces].filter(([n, p]) => p.colour !== piece.colour && !this.position.pieces.has(n));
    taken.forEach(([n, p], i) => {
      const { cx, cy } = this.cell(n);
      const fading = this.piece(cx, cy, p.colour, p.king);
      const delay = Math.round(((i + 0.5) * SLIDE_MS * (points.length - 1)) / Math.max(1, taken.length));
      this.flights.fade(this.flyLayer, fading, { delay: Math.min(delay, SLIDE_MS * (points.length - 1)) });
    });
  }

  // --- drawing -------------------------------------------------------------------------------

  cell(n) {
    const { row, column } = rowColumn(n);
    const white = this.viewer === "W";
    const x = X0 + (white ? column - 1 : 10 - column) * SQ;
    const y = Y0 + (white ? row - 1 : 10 - row) * SQ;
    return { x, y, cx: x + SQ / 2, cy: y + SQ / 2 };
  }

  render() {
    this.places = new Map();
    this.tops = new Map();
    const svg = s("svg", {
      viewBox: `0 0 ${VW} ${VH}`, class: "sb-svg sb-variant-draughts", role: "group",
      "aria-label": this.summary(),
    });
    svg.append(s("defs", {}, shine(`${this.uid}-shine`)));
    const base = s("g", { class: "sb-base" });
    const last = s("g", { class: "sb-last-move" });
    const pieces = s("g", { class: "sb-pieces" });
    this.under = s("g", { class: "sb-marks" });
    this.marks = s("g", { class: "sb-marks" });
    this.hits = s("g", { class: "sb-hits" });
    this.dragLayer = s("g", { class: "sb-drag" });
    this.flyLayer = s("g", { class: "sb-flying" });
    svg.append(base, last, this.under, pieces, this.flyLayer, this.marks, this.hits, this.dragLayer);

    base.append(
      s("rect", { x: 0, y: 0, width: VW, height: VH, rx: 18, class: "sb-case" }),
      s("rect", { x: 0, y: STRIP, width: VW, height: VH - 2 * STRIP, rx: 12, class: "sb-wood" }),
    );
    for (let row = 0; row < 10; row++) {
      for (let column = 0; column < 10; column++) {
        if ((row + column) % 2 === 0) {
          base.append(s("rect", { x: X0 + column * SQ, y: Y0 + row * SQ, width: SQ, height: SQ, class: "sb-square-light" }));
        }
      }
    }
    for (let n = 1; n <= 50; n++) {
      const { x, y } = this.cell(n);
      base.append(
        s("rect", { x, y, width: SQ, height: SQ, class: "sb-square-dark" }),
        s("text", { x: x + 4, y: y + 14, class: "sb-square-number" }, String(n)),
      );
    }
    this.drawLastMove(last);
    this.drawBest(last);
    for (let n = 1; n <= 50; n++) {
      const piece = this.position.pieces.get(n);
      const { x, y, cx, cy } = this.cell(n);
      if (piece) {
        const el = this.piece(cx, cy, piece.colour, piece.king);
        pieces.append(el);
        this.tops.set(`s${n}`, el);
      }
      this.places.set(`s${n}`, {
        n, rect: { x, y, width: SQ, height: SQ },
        contents: piece ? tr(`board.${piece.colour === "W" ? "white" : "black"}_${piece.king ? "king" : "man"}`) : tr("board.empty"),
      });
    }
    this.drawStrip(base, this.viewer === "W" ? "B" : "W", true);
    this.drawStrip(base, this.viewer, false);
    this.drawHits();

    this.listen(svg);
    clear(this.root).append(svg);
    this.chooser = null;
    this.svg = svg;
    fitStrips(svg);
  }

  lastMove() {
    const moves = Array.isArray(this.state.moves) ? this.state.moves : [];
    return moves.length ? String(moves[moves.length - 1]) : null;
  }

  drawLastMove(g) {
    const path = movePath(this.lastMove());
    if (path.length < 2) return;
    path.forEach((n, i) => {
      const { x, y } = this.cell(n);
      const end = i === 0 || i === path.length - 1;
      g.append(s("rect", { x, y, width: SQ, height: SQ, class: "sb-last", "fill-opacity": end ? 1 : 0.55 }));
    });
    g.append(s("polyline", { points: this.pathPoints(path), class: "sb-last-path" }));
  }

  // The review's best move (state.best, a move in DR-4 notation) on the position before it.
  drawBest(g) {
    const path = movePath(typeof this.state.best === "string" ? this.state.best : null);
    if (path.length < 2) return;
    for (const n of [path[0], path[path.length - 1]]) {
      const { x, y } = this.cell(n);
      g.append(s("rect", { x, y, width: SQ, height: SQ, class: "sb-best" }));
    }
    g.append(s("polyline", { points: this.pathPoints(path), class: "sb-best-path", "data-best": this.state.best }));
  }

  pathPoints(path) {
    return path.map((n) => {
      const { cx, cy } = this.cell(n);
      return `${cx},${cy}`;
    }).join(" ");
  }

  piece(cx, cy, colour, king) {
    const g = s("g", { class: `sb-piece sb-${colour}${king ? " is-king" : ""}` });
    const disc = (y) => [
      s("circle", { cx, cy: y, r: PIECE, class: "sb-piece-body" }),
      s("circle", { cx, cy: y, r: PIECE * 0.66, class: "sb-piece-groove" }),
      s("circle", { cx, cy: y, r: PIECE, fill: `url(#${this.uid}-shine)`, class: "sb-checker-shine" }),
    ];
    if (!king) {
      g.append(...disc(cy));
      return g;
    }
    // A king is a crowned man: two discs stacked, a crown on top.
    g.append(...disc(cy + 5), ...disc(cy - 4));
    const y = cy - 4;
    g.append(s("path", {
      class: "sb-crown",
      d: `M${cx - 13},${y + 7} L${cx - 14},${y - 6} L${cx - 6},${y} L${cx},${y - 11} `
        + `L${cx + 6},${y} L${cx + 14},${y - 6} L${cx + 13},${y + 7} Z`,
    }));
    return g;
  }

  drawStrip(g, side, upper) {
    const y = upper ? 0 : VH - STRIP;
    const base = y + STRIP / 2 + 7;
    const you = !this.spectator && side === this.viewer;
    const flag = this.flagOf(side, you, upper);
    const mine = [...this.position.pieces.values()].filter((p) => p.colour === side);
    const kings = mine.filter((p) => p.king).length;
    const strip = s("g", { class: "sb-strip" });
    if (flag) strip.append(s("rect", { x: 4, y: y + 6, width: VW - 8, height: STRIP - 12, rx: 10, class: "sb-strip-active" }));
    strip.append(
      s("circle", { cx: 34, cy: y + STRIP / 2, r: 14, class: `sb-strip-disc sb-${side}` }),
      s("text", { x: 58, y: base, class: "sb-strip-name" },
        you ? `${colourName(side)} (${tr("board.you")})` : colourName(side)),
      s("text", { x: VW * 0.36, y: base, class: "sb-strip-info" }, piecesText(mine.length)),
    );
    if (kings) {
      strip.append(s("text", { x: VW * 0.58, y: base, class: "sb-strip-info sb-strip-optional" }, kingsText(kings)));
    }
    if (flag) strip.append(s("text", { x: VW - 24, y: base, class: "sb-strip-flag" }, flag));
    g.append(strip);
  }

  flagOf(side, you, upper) {
    const result = this.state.result;
    if (result) {
      if (result.winner === side) return tr("board.wins", { colour: colourName(side) });
      return !result.winner && !upper ? tr("board.draw") : null;
    }
    if (this.state.to_act !== side) return null;
    return tr(you ? "board.your_turn" : "board.to_move");
  }

  summary() {
    const pieces = [...this.position.pieces.values()];
    const count = (colour, king) => pieces.filter((p) => p.colour === colour && (!king || p.king)).length;
    const result = this.state.result;
    let status = "";
    if (result) status = result.winner ? tr("board.wins", { colour: colourName(result.winner) }) : tr("board.draw");
    else if (this.state.to_act) status = tr("board.plays", { colour: colourName(this.state.to_act) });
    const last = this.lastMove();
    return tr("board.draughts_summary", {
      white: piecesText(count("W")), white_kings: kingsText(count("W", true)),
      black: piecesText(count("B")), black_kings: kingsText(count("B", true)),
      status, last: last ? tr("board.last_move", { move: last }) : "",
    }).trim();
  }

  // --- targets ---------------------------------------------------------------------------------

  drawHits() {
    // Tab order follows the squares' numbers as the player sees them: from the top left.
    const order = [...this.places.keys()].sort((a, b) => {
      const pa = this.places.get(a).rect;
      const pb = this.places.get(b).rect;
      return pa.y - pb.y || pa.x - pb.x;
    });
    for (const key of order) {
      const place = this.places.get(key);
      const rect = s("rect", {
        ...place.rect, class: "sb-hit", tabindex: 0, role: "button", "data-key": key,
        "data-square": place.n, "aria-label": this.labelOf(key),
      });
      if (this.sources.has(key)) rect.classList.add("is-source");
      place.el = rect;
      this.hits.append(rect);
    }
  }

  labelOf(key) {
    const place = this.places.get(key);
    let label = tr("board.label", { place: tr("board.square", { n: place.n }), contents: place.contents });
    if (this.routes && this.routeTargets.has(key)) {
      label += ` (${tr("board.route_here", { n: this.routeTargets.get(key).index })})`;
    } else if (!this.routes && this.targets.has(key)) {
      label += ` (${tr("board.move_here")})`;
    }
    return label;
  }

  select(key) {
    this.routes = null;
    this.selected = key && this.sources.has(key) ? key : null;
    this.targets = new Map();
    if (this.selected) {
      for (const move of this.sources.get(this.selected)) {
        const target = `s${move.path[move.path.length - 1]}`;
        if (!this.targets.has(target)) this.targets.set(target, []);
        this.targets.get(target).push(move);
      }
    }
    this.showSelection();
    this.showTouchTargets((key) => tr("board.square", { n: this.places.get(key)?.n ?? key }), tr("board.cancel"));
  }

  /** Several legal moves end on the chosen square: ask which route, by square or by chooser. */
  chooseRoute(candidates) {
    if (candidates.length === 1) {
      this.send(candidates[0]);
      return;
    }
    this.routes = candidates;
    const length = Math.max(...candidates.map((m) => m.path.length));
    let index = 1;
    while (index < length - 1 && new Set(candidates.map((m) => m.path[index])).size === 1) index++;
    this.routeTargets = new Map();
    for (const move of candidates) {
      const key = `s${move.path[index]}`;
      if (!this.routeTargets.has(key)) this.routeTargets.set(key, { index: this.routeTargets.size + 1, moves: [] });
      this.routeTargets.get(key).moves.push(move);
    }
    this.showSelection();
    this.showChooser();
  }

  showSelection() {
    if (!this.svg) return;
    clear(this.under);
    clear(this.marks);
    if (this.chooser && !this.routes) {
      this.chooser.remove();
      this.chooser = null;
    }
    const targets = this.routes ? this.routeTargets : this.targets;
    for (const [key, place] of this.places) {
      place.el.classList.toggle("is-selected", key === this.selected);
      place.el.classList.toggle("is-target", targets.has(key));
      if (this.sources.has(key)) place.el.setAttribute("aria-pressed", String(key === this.selected));
      place.el.setAttribute("aria-label", this.labelOf(key));
    }
    if (!this.selected) return;
    const source = this.places.get(this.selected).rect;
    this.under.append(s("g", { class: "sb-mark-source" }, s("rect", { ...source, class: "sb-mark-area" })));
    if (this.routes) {
      this.routes.forEach((move, i) => {
        this.marks.append(s("polyline", { points: this.pathPoints(move.path), class: i % 2 ? "sb-route sb-route-alt" : "sb-route" }));
      });
      for (const [key, { index }] of this.routeTargets) {
        const { cx, cy } = this.cell(Number(key.slice(1)));
        this.marks.append(s("g", { class: "sb-mark-target" },
          s("circle", { cx, cy, r: 15, class: "sb-route-badge" }),
          s("text", { x: cx, y: cy + 6, class: "sb-route-badge-text" }, String(index))));
      }
      return;
    }
    for (const moves of this.targets.values()) {
      for (const move of moves) {
        if (move.path.length > 2) this.marks.append(s("polyline", { points: this.pathPoints(move.path), class: "sb-route" }));
      }
    }
    for (const key of this.targets.keys()) {
      const { cx, cy } = this.cell(Number(key.slice(1)));
      this.marks.append(s("g", { class: "sb-mark-target" }, s("circle", { cx, cy, r: 13, class: "sb-mark-dot" })));
    }
  }

  showChooser() {
    if (this.chooser) this.chooser.remove();
    const buttons = [];
    for (const { index, moves } of this.routeTargets.values()) {
      for (const move of moves) {
        buttons.push(h("button", { type: "button", "data-move": move.text, onclick: () => this.send(move) },
          `${index}: ${move.text}`));
      }
    }
    this.chooser = h("div", { class: "sb-chooser", role: "group", "aria-label": tr("board.choose_route") },
      h("p", {}, tr("board.choose_route")),
      buttons,
      h("button", { type: "button", class: "sb-chooser-cancel", onclick: () => this.select(null) }, tr("board.cancel")));
    this.root.append(this.chooser);
    buttons[0].focus({ preventScroll: true });
  }

  activate(key) {
    if (this.routes) {
      const picked = this.routeTargets.get(key);
      if (picked) this.chooseRoute(picked.moves);
      else if (!this.targets.has(key)) this.select(null);
      return;
    }
    if (this.selected && this.targets.has(key)) {
      this.chooseRoute(this.targets.get(key));
      return;
    }
    if (this.sources.has(key) && key !== this.selected) this.select(key);
    else this.select(null);
  }

  send(move) {
    const hadFocus = this.chooser && this.chooser.contains(document.activeElement);
    const from = this.selected;
    this.select(null);
    if (hadFocus) this.focus(from);
    this.onAction({ type: "move", text: move.text });
  }

  // --- input (board/input.js): what a drag draws and where a drop goes -----------------------

  needsSelect(key) {
    return this.selected !== key || Boolean(this.routes);
  }

  ghostFor(key) {
    const piece = this.position.pieces.get(Number(key.slice(1)));
    const ghost = this.piece(0, 0, piece.colour, piece.king);
    ghost.classList.add("sb-ghost");
    return ghost;
  }

  dropOn(key) {
    this.chooseRoute(this.targets.get(key));
  }
}
