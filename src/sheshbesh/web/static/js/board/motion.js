// Motion on the boards (issue 17): a piece that moved slides from where it was to where the
// new state has it, along the route it took. The board is drawn in its final state first;
// a flying copy of the piece covers the hidden real one until it lands, so whatever stops
// an animation (a new frame, the room closing) leaves the board exactly as the server says.
// `prefers-reduced-motion: reduce` turns every slide off (the dice's tumble is CSS, and
// the stylesheet turns it off the same way).

export const SLIDE_MS = 260;     // one checker or one leg of a capture path
export const STAGGER_MS = 200;   // between the checkers of one play
export const HIT_MS = 220;       // a hit checker's way to the bar, after its hitter lands

/** Whether the player asked his system for less motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The flights of one board: `fly` starts one, `finish` ends them all at once (a redraw
 * calls it first). `root.dataset.flying` counts those in the air, and `flown` all started,
 * so a page (and a test) can tell when the board is still.
 */
export class Flights {
  constructor(root) {
    this.root = root;
    this.live = new Set();
    this.flown = 0;
    this.show();
  }

  /**
   * Slide `copy` (already drawn at the start of `points` in `layer`) through `points` to
   * the last one; `hidden` (the real piece, drawn there) shows again when it lands.
   */
  fly(layer, copy, points, { delay = 0, leg = SLIDE_MS, hidden = null, fade = false } = {}) {
    if (points.length < 2 || typeof copy.animate !== "function") return null;
    const [start] = points;
    const frames = points.map((p) => ({ transform: `translate(${p.x - start.x}px, ${p.y - start.y}px)` }));
    if (fade) frames[frames.length - 1].opacity = 0.2;
    if (hidden) hidden.style.visibility = "hidden";
    layer.append(copy);
    const animation = copy.animate(frames, {
      duration: leg * (points.length - 1), delay, easing: "ease-in-out", fill: "both",
    });
    const flight = { animation, copy, hidden };
    this.live.add(flight);
    this.flown += 1;
    this.show();
    animation.finished.then(() => this.land(flight), () => this.land(flight));
    return flight;
  }

  /** A piece that vanished (a captured man) fades where it stood. */
  fade(layer, copy, { delay = 0, duration = SLIDE_MS } = {}) {
    if (typeof copy.animate !== "function") return null;
    layer.append(copy);
    const animation = copy.animate([{ opacity: 1 }, { opacity: 0 }], { duration, delay, fill: "both" });
    const flight = { animation, copy, hidden: null };
    this.live.add(flight);
    this.flown += 1;
    this.show();
    animation.finished.then(() => this.land(flight), () => this.land(flight));
    return flight;
  }

  land(flight) {
    if (!this.live.delete(flight)) return;
    flight.copy.remove();
    if (flight.hidden) flight.hidden.style.visibility = "";
    this.show();
  }

  /** Every flight lands now (before a redraw, or when the board goes). */
  finish() {
    for (const flight of [...this.live]) {
      try {
        flight.animation.finish();
      } catch {
        // an animation that cannot finish (infinite or detached) is simply dropped
      }
      this.land(flight);
    }
  }

  show() {
    this.root.dataset.flying = String(this.live.size);
    this.root.dataset.flown = String(this.flown);
  }
}
