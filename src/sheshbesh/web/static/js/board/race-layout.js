// The race board's layout in SVG viewBox units: the sizes and places of the field, the
// bar, the side columns and the players' strips, where each slot's checkers stack, and
// the empty board drawn from them. The same for every variant and seat; race.js decides
// which point goes in which slot.

import { s } from "../dom.js";

export const R = 25;                  // checker radius
export const D = 50;                  // distance between stacked checkers
export const P = 56;                  // point width
export const BW = 56;                 // bar width
export const HALF = 6 * P;
const FIELD_W = 2 * HALF + BW;
export const FIELD_H = 600;
export const TRI = 236;               // length of a point
const WOOD = 14;                      // frame beside the side columns
const RIM = 28;                       // frame above and below the field, carrying the point numbers
export const COL = 72;                // side columns: trays, cube, unentered checkers
export const STRIP = 56;              // the players' strips above and below the board
export const X_LEFT = WOOD;
export const X_FIELD = X_LEFT + COL + WOOD;
export const X_BAR = X_FIELD + HALF;
export const X_RIGHT = X_FIELD + FIELD_W + WOOD;
export const VW = X_RIGHT + COL + WOOD;
export const Y_FIELD = STRIP + RIM;
export const MID = Y_FIELD + FIELD_H / 2;
export const Y_BOTTOM = Y_FIELD + FIELD_H;
export const VH = Y_BOTTOM + RIM + STRIP;
export const HIT_H = FIELD_H / 2 - 30; // a point's target stops short of the dice in the middle

/** Slots count counterclockwise from the viewer's bottom right corner: slot = own number − 1. */
export function slotX(slot) {
  const column = slot < 12 ? 11 - slot : slot - 12; // 0 … 11 from the left
  return X_FIELD + column * P + (column >= 6 ? BW : 0) + P / 2;
}

/** The centre of the k-th checker (from the edge) on a slot's stack; k may be fractional. */
export function stackY(slot, k) {
  return slot >= 12 ? Y_FIELD + R + k * D : Y_BOTTOM - R - k * D;
}

/** The empty board: case, wood, bar, side columns, felt, the 24 points and their numbers;
 * `mirror` puts slot 1 bottom left (the frame itself is symmetric). */
export function drawFrame(g, mirror = false) {
  g.append(
    s("rect", { x: 0, y: 0, width: VW, height: VH, rx: 18, class: "sb-case" }),
    s("rect", { x: 0, y: STRIP, width: VW, height: VH - 2 * STRIP, rx: 12, class: "sb-wood" }),
    s("rect", { x: X_BAR, y: STRIP, width: BW, height: VH - 2 * STRIP, class: "sb-bar" }),
  );
  for (const x of [X_LEFT, X_RIGHT]) {
    g.append(s("rect", { x, y: Y_FIELD, width: COL, height: FIELD_H, rx: 6, class: "sb-column" }));
  }
  for (const x of [X_FIELD, X_BAR + BW]) {
    g.append(s("rect", { x, y: Y_FIELD, width: HALF, height: FIELD_H, class: "sb-felt" }));
  }
  for (let slot = 0; slot < 24; slot++) {
    const x = mirror ? VW - slotX(slot) : slotX(slot);
    const top = slot >= 12;
    const column = top ? slot - 12 : 11 - slot;
    const edge = top ? Y_FIELD : Y_BOTTOM;
    const tip = top ? Y_FIELD + TRI : Y_BOTTOM - TRI;
    g.append(
      s("polygon", {
        points: `${x - P / 2 + 1},${edge} ${x + P / 2 - 1},${edge} ${x},${tip}`,
        class: (column + (top ? 1 : 0)) % 2 ? "sb-point sb-point-dark" : "sb-point sb-point-light",
      }),
      s("text", { x, y: top ? Y_FIELD - RIM / 2 + 6 : Y_BOTTOM + RIM / 2 + 7, class: "sb-number" }, String(slot + 1)),
    );
  }
}
