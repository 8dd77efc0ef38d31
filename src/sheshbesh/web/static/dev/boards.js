// Dev gallery for the boards (static/dev/boards.html): sample states of every variant,
// each with the `legal` list the server would send, for screenshots and the browser test.
// The legal steps were listed with sheshbesh's own engine (Turn.legal_steps) for these
// positions. Every onAction call lands in window.boardEvents as {sample, action}.
// ?lang=xx picks a catalog (English by default), ?dir=rtl turns the whole page right-to-left.

import { h } from "../js/dom.js";
import * as i18n from "../js/i18n.js";
import { RaceBoard } from "../js/board/race.js";
import { DraughtsBoard } from "../js/board/draughts.js";

window.boardEvents = [];
window.boards = {};
window.samples = {};  // id -> sample: a test redraws one with other options (flip, mirror, a move)

const mv = (from, to, die) => ({ type: "move", from, to, die });
const moves = (list) => list.map(([from, to, die]) => mv(from, to, die));
const dm = (...texts) => texts.map((text) => ({ type: "move", text }));
const CONTROL = [{ type: "resign", level: 1 }];

function race(variant, board, more = {}) {
  const turn = board.slice(0, 1);
  return {
    variant,
    options: { cube: false, beavers: false, jacoby: false, auto_doubles: 0, auto_play_forced: true,
      stake_mode: "oin", last_roll: false, match_length: 0, crawford: false },
    phase: "move", position: board, board, turn, to_act: turn, white_seat: 0, dice: null, steps: [],
    cube: { value: 1, owner: null }, pips: { W: 0, B: 0 }, borne_off: { W: 0, B: 0 },
    resign_offer: null, final_turn: false, commit: "0".repeat(64), result: null,
    ...more,
  };
}

function withOptions(state, options) {
  return { ...state, options: { ...state.options, ...options } };
}

const BG_START = "W:W6x5,8x3,13x5,24x2:B1x2,12x5,17x3,19x5";
const HEADS = "W:W24x15:B12x15";

const SAMPLES = [
  {
    id: "bg-start", title: "Backgammon — start, White to roll (may double)", you: 0,
    state: withOptions(race("backgammon", BG_START, { phase: "roll" }), { cube: true }),
    legal: [{ type: "roll" }, { type: "double" }, ...CONTROL],
  },
  {
    id: "bg-bar", title: "Backgammon — on the bar, 5 borne off, White owns the cube at 4", you: 0,
    state: withOptions(race("backgammon", "W:Wbar,3x2,4x2,5x3,6x4,8x2,12:B19x3,20x2,22x3,23x2", {
      dice: [4, 1], cube: { value: 4, owner: "W" },
    }), { cube: true }),
    legal: [...moves([[25, 21, 4], [25, 24, 1]]), ...CONTROL],
  },
  {
    id: "bg-bearoff", title: "Backgammon — bearing off, 6-5: both dice take the 3 off (the 6 is first)", you: 0,
    state: withOptions(race("backgammon", "W:W1,2,3:B19x5,20x4,21x3,22x3", {
      dice: [6, 5], cube: { value: 2, owner: "B" },
    }), { cube: true }),
    legal: [...moves([[3, 0, 6], [3, 0, 5]]), ...CONTROL],
  },
  {
    id: "bg-finished", title: "Backgammon — finished: White wins a gammon (spectator)", you: null,
    state: withOptions(race("backgammon", "B:W:B19x5,20x4,21x3,22x3", {
      phase: "finished", to_act: null, cube: { value: 2, owner: "W" },
      result: { winner: "W", level: 2, cube: 2, points: 4, reason: "borne off", payout: { W: 400 } },
    }), { cube: true }),
    legal: null,
  },
  {
    id: "sn-start", title: "Short nardy — start, opening roll (spectator)", you: null,
    state: race("short_nardy", BG_START, { phase: "opening", to_act: null }),
    legal: null,
  },
  {
    id: "sn-mid", title: "Short nardy — Black's view, Black to play 5-3", you: 1,
    state: race("short_nardy", "B:W6x4,8x3,10,13x4,15,24x2:B1x2,12x4,17x3,19x5,21", { dice: [5, 3] }),
    legal: [...moves([[13, 8, 5], [8, 3, 5], [24, 21, 3], [13, 10, 3], [8, 5, 3], [6, 3, 3]]), ...CONTROL],
  },
  {
    id: "tn-start", title: "Takhte nard — start, an automatic double: cube 2 in the middle, Black to roll", you: 0,
    state: withOptions(race("takhte_nard", "B" + BG_START.slice(1), {
      phase: "roll", cube: { value: 2, owner: null },
    }), { cube: true, beavers: true, jacoby: true, auto_doubles: 1 }),
    legal: null,
  },
  {
    id: "tn-bearoff", title: "Takhte nard — bearing off 6-2, Black owns the cube at 2", you: 0,
    state: withOptions(race("takhte_nard", "W:W1x2,2x2,3x3,4x2,5x2,6:B12x2,17x3,19x5,20x2,24x3", {
      dice: [6, 2], cube: { value: 2, owner: "B" },
    }), { cube: true, beavers: true, jacoby: true, auto_doubles: 1 }),
    legal: [...moves([[6, 0, 6], [6, 4, 2], [5, 3, 2], [4, 2, 2], [3, 1, 2], [2, 0, 2]]), ...CONTROL],
  },
  {
    id: "cn-start", title: "Caucasian nardy — start, White to roll", you: 0,
    state: race("caucasian_nardy", BG_START, { phase: "roll" }),
    legal: [{ type: "roll" }, ...CONTROL],
  },
  {
    id: "cn-mid", title: "Caucasian nardy — 6-3, 10/4* entered (used die dimmed): no cover on 4 (CN-2)", you: 0,
    state: race("caucasian_nardy", "W:W4,6x5,7x2,13x5,24x2:Bbar,1x2,12x4,17x3,19x5", {
      position: "W:W10,7x2,6x5,13x5,24x2:B4,1x2,12x4,17x3,19x5", dice: [6, 3], steps: [[10, 4, 6]],
    }),
    legal: [...moves([[24, 21, 3], [13, 10, 3], [6, 3, 3]]), { type: "undo" }, ...CONTROL],
  },
  {
    id: "pk-start", title: "Plakoto — start (spectator)", you: null,
    state: race("plakoto", "W:W24x15:B1x15", { phase: "roll" }),
    legal: null,
  },
  {
    id: "pk-mid", title: "Plakoto — Black's view: pins on both sides, Black to play 6-2", you: 1,
    state: race("plakoto", "B:W5,8x2,13,19,20p,24x9:B1x9,5p,8p,14,17,20x2", { dice: [6, 2] }),
    legal: [...moves([[24, 18, 6], [11, 5, 6], [8, 2, 6], [24, 22, 2], [11, 9, 2], [8, 6, 2], [5, 3, 2]]), ...CONTROL],
  },
  {
    id: "rb-start", title: "Russian backgammon — start: all checkers not yet entered", you: 0,
    state: race("russian_backgammon", "W:Wnewx15:Bnewx15", { phase: "opening", to_act: null }),
    legal: null,
  },
  {
    id: "rb-mid", title: "Russian backgammon — 3-3, one entered; Black on the bar", you: 0,
    state: race("russian_backgammon", "W:Wnewx5,6x3,9,13x2,18,20x2,22:Bbar,newx5,3,7x2,11,15,19x2,21x2", {
      position: "W:Wnewx6,20x2,18,13x2,9,6x3:Bbar,newx5,21x2,19x2,15,11,7x2,3", dice: [3, 3], steps: [[25, 22, 3]],
    }),
    legal: [...moves([[25, 22, 3], [20, 17, 3], [18, 15, 3], [13, 10, 3], [9, 6, 3], [6, 3, 3]]), { type: "undo" }, ...CONTROL],
  },
  {
    id: "ln-start", title: "Long nardy — start: the heads on opposite corners", you: 0,
    state: race("long_nardy", HEADS, { phase: "roll" }),
    legal: [{ type: "roll" }, ...CONTROL],
  },
  {
    id: "ln-mid", title: "Long nardy — White to play 6-5", you: 0,
    state: race("long_nardy", "W:W5,9,15,17,19x2,24x9:B3,6,8x2,12x8,20,22x2", { dice: [6, 5] }),
    legal: [...moves([[24, 18, 6], [19, 13, 6], [17, 11, 6], [15, 9, 6], [24, 19, 5], [19, 14, 5], [15, 10, 5], [9, 4, 5]]), ...CONTROL],
  },
  {
    id: "ln-black", title: "Long nardy — the same from Black's seat, Black to play 4-2", you: 1,
    state: race("long_nardy", "B:W5,9,15,17,19x2,24x9:B3,6,8x2,12x8,20,22x2", { dice: [4, 2] }),
    legal: [...moves([[24, 20, 4], [20, 16, 4], [18, 14, 4], [15, 11, 4], [10, 6, 4], [8, 4, 4],
      [24, 22, 2], [20, 18, 2], [18, 16, 2], [15, 13, 2], [10, 8, 2], [8, 6, 2]]), ...CONTROL],
  },
  {
    id: "jq-start", title: "Jacquet — start", you: 0,
    state: race("jacquet", HEADS, { phase: "roll", turn: "B", to_act: "B", board: "B:W24x15:B12x15" }),
    legal: null,
  },
  {
    id: "jq-mid", title: "Jacquet — couriers on their way (ringed), White to play 5-3", you: 0,
    state: race("jacquet", "W:W16,24x14:B7,12x14", { dice: [5, 3] }),
    legal: [...moves([[16, 11, 5], [16, 13, 3]]), ...CONTROL],
  },
  {
    id: "bg-rtl", title: "Backgammon in a right-to-left page: Black doubled, White to answer (the board does not mirror)", you: 1, dir: "rtl",
    state: withOptions(race("backgammon", "B:W6x4,8x3,13x4,24x2,10,15:B1x2,12x4,17x3,19x5,21", {
      phase: "doubled", to_act: "W", cube: { value: 1, owner: null },
    }), { cube: true }),
    legal: null,
  },
];

function draughts(position, more = {}) {
  return {
    kind: "draughts", variant: "draughts", options: { move_limit: 0 }, position,
    to_act: position.slice(0, 1), white_seat: 0, moves: [], draw_offer: null, result: null, ...more,
  };
}

const DRAUGHTS = [
  {
    id: "dr-start", title: "Draughts — start, White to move", you: 0,
    state: draughts("W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
    legal: [...dm("31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"), { type: "resign" }],
  },
  {
    id: "dr-capture", title: "Draughts — a double capture 32x23x14 (kings on both sides)", you: 0,
    state: draughts("W:WK3,32,36,38,39,43,45:B7,11,16,19,27,28,K49", { moves: ["32-28", "22-27"] }),
    legal: [...dm("32x23x14"), { type: "resign" }],
  },
  {
    id: "dr-routes", title: "Draughts — king captures: two routes to each square (pick one)", you: 0,
    state: draughts("W:W40,45,K47,49,50:B2,4,9,12,19,29,K36", { moves: ["43-38", "13-19"] }),
    legal: [...dm("47x20x3x17", "47x20x3x21", "47x20x3x26", "47x24x8x17", "47x24x8x21", "47x24x8x26"), { type: "resign" }],
  },
  {
    id: "dr-black", title: "Draughts — Black's view, Black to move after 28-23", you: 1,
    state: draughts("B:WK5,23,31,33,34,38,40,44:B8,12,13,14,17,18,22,26,K46", { moves: ["33-28", "19-23", "28x19", "14x23", "28-23"] }),
    legal: [...dm("18x29", "26x37", "46x19"), { type: "resign" }],
  },
  {
    id: "dr-finished", title: "Draughts — finished: Black has no pieces (spectator)", you: null,
    state: draughts("B:WK5,13,33:B", {
      to_act: null, moves: ["24x13"],
      result: { winner: "W", level: 1, cube: 1, points: 1, reason: "DR-13 no legal move", payout: { W: 100 } },
    }),
    legal: null,
  },
];

function mount(sample, Board) {
  const host = h("div", { class: "sb-gallery-host" });
  const card = h("section", { class: "sb-gallery-card", "data-sample": sample.id, dir: sample.dir || null },
    h("h2", {}, sample.title), host);
  document.getElementById("samples").append(card);
  const board = new Board(host, {
    onAction: (action) => {
      window.boardEvents.push({ sample: sample.id, action });
      document.getElementById("events").textContent = `${sample.id}: ${JSON.stringify(action)}`;
    },
  });
  board.update({ state: sample.state, legal: sample.legal, you: sample.you });
  window.boards[sample.id] = board;
  window.samples[sample.id] = sample;
}

async function main() {
  const params = new URLSearchParams(location.search);
  try {
    await i18n.setLanguage(params.get("lang") || "en");
  } catch (error) {
    console.warn("no catalog; the boards show their English defaults", error);
  }
  if (params.get("dir")) document.documentElement.dir = params.get("dir");
  for (const sample of SAMPLES) mount(sample, RaceBoard);
  for (const sample of DRAUGHTS) mount(sample, DraughtsBoard);
  window.galleryReady = true;
}

main();
