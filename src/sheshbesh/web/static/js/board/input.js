// How a player acts on a board, shared by the race and draughts boards: tap or
// click a piece and then a highlighted target, drag a piece onto one, or use the
// keyboard (Tab / arrows to move between places, Enter or Space to pick).
// On a touch screen a point can be narrower than a fingertip (a phone shows the race
// board's points about 21 px wide), so a tap snaps to the nearest place it could mean
// (a movable piece, or one of the chosen piece's destinations), and the destinations
// also appear as a row of buttons at least 44 px high right under the board.
// A board that extends BoardInput keeps `places`, `sources`, `targets`, `tops`,
// `selected`, `svg` and `dragLayer`, and says three things of its own:
// ghostFor(key) (the piece drawn under the finger), dropOn(key) (a target was
// reached by dragging) and activate(key) (a place was picked).

import { h } from "../dom.js";
import { keyAt, nearest, placeAt, svgPoint } from "./geometry.js";

const SNAP = 64; // viewBox units: how far from a place a tap still means it

let boards = 0;

export class BoardInput {
  /** The board's root in `host`; a click elsewhere or Escape drops the selection. */
  constructor(host, onAction, kind) {
    this.host = host;
    this.onAction = onAction || (() => {});
    this.uid = `sb-${kind}-${++boards}`;
    this.root = h("div", { class: `sb-board sb-${kind}` });
    host.append(this.root);
    this.svg = null;
    this.selected = null;
    this.targets = new Map();
    this.press = null;
    this.drag = null;
    this.touched = false;  // the last press was a finger: show the destinations as buttons
    this.bar = null;
    this.onOutside = (event) => {
      if (this.busy() && !this.root.contains(event.target)) this.select(null);
    };
    this.onEscape = (event) => {
      if (event.key === "Escape" && (this.busy() || this.drag)) this.cancel();
    };
    document.addEventListener("pointerdown", this.onOutside);
    document.addEventListener("keydown", this.onEscape);
  }

  destroy() {
    document.removeEventListener("pointerdown", this.onOutside);
    document.removeEventListener("keydown", this.onEscape);
    this.root.remove();
    this.svg = null;
  }

  /** Take the pointer, touch and keyboard input of a freshly drawn board. */
  listen(svg) {
    svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    svg.addEventListener("pointercancel", () => this.cancelDrag());
    // A finger on a movable checker drags it instead of scrolling the page (CSS touch-action
    // is not honoured on SVG children); anywhere else the page scrolls as usual.
    svg.addEventListener("touchstart", (e) => {
      if (this.sources.has(keyAt(e.target))) e.preventDefault();
    }, { passive: false });
    svg.addEventListener("keydown", (e) => this.keyDown(e));
  }

  /** Whether something is picked that a click elsewhere or Escape should drop. */
  busy() {
    return Boolean(this.selected);
  }

  cancel() {
    this.cancelDrag();
    this.select(null);
  }

  /** Whether picking `key` again must select it afresh (e.g. to reset a route). */
  needsSelect(key) {
    return this.selected !== key;
  }

  pointerDown(event) {
    if (event.button !== undefined && event.button !== 0) return;
    this.touched = event.pointerType === "touch" || event.pointerType === "pen";
    let key = keyAt(event.target);
    if (this.touched) key = this.snap(key, svgPoint(this.svg, event));
    if (!key) {
      this.select(null);
      return;
    }
    this.press = { key, id: event.pointerId, x: event.clientX, y: event.clientY };
    if (this.sources.has(key)) {
      try {
        this.svg.setPointerCapture(event.pointerId);
      } catch {
        // a synthetic event has no capturable pointer; dragging still works without capture
      }
    }
  }

  pointerMove(event) {
    const press = this.press;
    if (!press || press.id !== event.pointerId) return;
    if (!this.drag) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < 6) return;
      if (!this.sources.has(press.key) || !this.tops.has(press.key)) return;
      if (this.needsSelect(press.key)) this.select(press.key);
      const top = this.tops.get(press.key);
      top.classList.add("is-lifted");
      const ghost = this.ghostFor(press.key);
      this.dragLayer.append(ghost);
      this.drag = { key: press.key, top, ghost };
    }
    const point = svgPoint(this.svg, event);
    this.drag.ghost.setAttribute("transform", `translate(${point.x} ${point.y})`);
    event.preventDefault();
  }

  pointerUp(event) {
    const press = this.press;
    this.press = null;
    if (!press || press.id !== event.pointerId) return;
    if (this.drag) {
      const key = placeAt(this.places, svgPoint(this.svg, event));
      const from = this.drag.key;
      this.cancelDrag();
      if (key && this.targets.has(key)) this.dropOn(key);
      else if (key !== from) this.select(null);
      return;
    }
    this.activate(press.key);
  }

  /** The place a fingertip at `point` means: `key` itself if it can be picked, else the
   * nearest place that can within SNAP, else `key`. */
  snap(key, point) {
    const wanted = new Set(this.sources.keys());
    if (this.selected) for (const target of this.targets.keys()) wanted.add(target);
    if (!wanted.size || wanted.has(key)) return key;
    let best = key;
    let bestDistance = SNAP;
    for (const candidate of wanted) {
      const place = this.places.get(candidate);
      if (!place) continue;
      const r = place.rect;
      const dx = Math.max(r.x - point.x, 0, point.x - (r.x + r.width));
      const dy = Math.max(r.y - point.y, 0, point.y - (r.y + r.height));
      const distance = Math.hypot(dx, dy);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = candidate;
      }
    }
    return best;
  }

  /**
   * After a finger picked a piece: its destinations as buttons right under the board,
   * each at least 44 px high (CSS), and a cancel. Gone once nothing is picked.
   */
  showTouchTargets(name, cancelLabel) {
    this.dropTouchTargets();
    if (!this.touched || !this.selected || !this.targets.size) return;
    const buttons = [...this.targets.keys()].map((key) => h("button", {
      type: "button", class: "sb-target-button", "data-target": key,
      onclick: () => this.activate(key),
    }, `→ ${name(key)}`));
    this.bar = h("div", { class: "sb-targets", role: "group", "data-testid": "touch-targets" },
      ...buttons,
      h("button", { type: "button", class: "sb-target-button sb-target-cancel", onclick: () => this.select(null) },
        cancelLabel));
    this.root.append(this.bar);
  }

  dropTouchTargets() {
    if (this.bar) this.bar.remove();
    this.bar = null;
  }

  cancelDrag() {
    if (!this.drag) return;
    this.drag.top.classList.remove("is-lifted");
    this.drag.ghost.remove();
    this.drag = null;
  }

  keyDown(event) {
    const key = keyAt(event.target);
    if (!key) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(key);
      this.focus(key);
    } else if (event.key.startsWith("Arrow")) {
      const next = nearest(this.places, key, event.key);
      if (next) {
        event.preventDefault();
        this.focus(next);
      }
    }
  }

  focus(key) {
    const place = this.places && this.places.get(key);
    if (place && place.el) place.el.focus();
  }
}
