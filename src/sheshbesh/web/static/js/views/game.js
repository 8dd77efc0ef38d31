// The game room: the board, both players with their clocks, the buttons for what
// the server says you may do now, the result and, once finished, a replay.
// Players and spectators use the same room; a spectator simply has no buttons.
// The server decides: the room only sends what a `legal` frame offered.
// The move list is the game's history: a line clicked (or ← →) shows that position,
// read only, until "back to the game" (history.js); the board tools turn the board,
// move the home board and the sounds (roomtools.js, prefs.js, sound.js).

import { applyTheme, avatarImg } from "../avatar.js";
import { betweenGames } from "../between.js";
import { Channel } from "../channel.js";
import { chatPanel } from "../chat.js";
import { append, clear, drawOnce, h } from "../dom.js";
import { History } from "../history.js";
import { MoveList, lines, renderMoves } from "../movelist.js";
import { reasonText } from "../outcome.js";
import { prefsOf, setPref } from "../prefs.js";
import { rematchPanel } from "../rematch.js";
import { reviewPanel } from "../review.js";
import { boardTools } from "../roomtools.js";
import { play as sound, setMuted } from "../sound.js";

const FIT_MARGIN = 8;  // px left free under the player's own row
const MIN_BOARD_HEIGHT = 240;  // px: in a window shorter than this the page scrolls
const BUTTONS = ["roll", "double", "take", "beaver", "drop", "undo", "confirm", "accept_resign",
  "decline_resign", "offer_draw", "accept_draw", "decline_draw"];

export async function mount(main, ctx) {
  const { t } = ctx;
  const id = ctx.params.get("game");
  const room = {
    v: null, you: null, players: [], summary: null, state: null, legal: null, clock: null, clockAt: 0, held: 0,
    presence: [null, null], moves: new MoveList(), pending: false, board: null, replay: null,
    aborted: null,  // {absent: [seat]}: a player never arrived, every stake went back
    flipped: false,  // the viewer turned the board round
  };
  setMuted(!prefsOf(ctx).sound);
  const history = new History({ api: ctx.api, id, onChange: () => {
    renderReplay();
    renderLog();
    render();
  } });
  const tools = boardTools({
    t,
    onFlip: () => {
      room.flipped = !room.flipped;
      render();
    },
    onHome: () => changePref("home", prefsOf(ctx).home === "left" ? "right" : "left"),
    onSound: () => changePref("sound", !prefsOf(ctx).sound),
  });
  async function changePref(name, value) {
    try {
      await setPref(ctx, name, value);
    } catch (error) {
      ctx.toast(error.message, "bad");
    }
    setMuted(!prefsOf(ctx).sound);
    render();
  }
  const prefs = JSON.parse(localStorage.getItem("room-prefs") || "{}");

  const boardHost = h("div", { class: "board-host", "data-testid": "board" });
  applyTheme(boardHost, ctx.me?.theme ?? null);  // each viewer sees the board in his own theme
  const top = h("div", { class: "players" });
  const bottom = h("div", { class: "players" });
  const status = h("p", { class: "status-line", "aria-live": "polite", "data-testid": "status" });
  const actions = h("div", { class: "actions", "data-testid": "actions" });
  const matchLine = h("p", { class: "match-line", hidden: true, "data-testid": "match-score" });
  const escrowLine = h("p", { class: "muted escrow", hidden: true, "data-testid": "escrow" });
  const between = betweenGames({ t, number: ctx.number, pair: ctx.pair });
  const result = h("section", { class: "card result", hidden: true, "data-testid": "result" });
  const log = h("ol", { class: "log", "aria-label": t("room.moves"), "data-testid": "moves" });
  const replayBox = h("div", { class: "replay", hidden: true });
  const autoRoll = h("input", { type: "checkbox", checked: !!prefs.autoRoll, onchange: savePrefs });
  const autoConfirm = h("input", { type: "checkbox", checked: !!prefs.autoConfirm, onchange: savePrefs });
  const options = h("div", { class: "options", hidden: true },
    h("label", { class: "check" }, autoRoll, t("room.auto_roll")),
    h("label", { class: "check" }, autoConfirm, t("room.auto_confirm")));
  const title = h("h1", {}, t("room.loading"));
  const review = reviewPanel({
    t, api: ctx.api, id, me: ctx.me, nameOfSide: (side) => nameOfSide(side),
    show: (makers, at, onMove) => {
      room.replay = { frames: makers.map((make) => make(room.state)), at, onMove };
      renderReplay();
      render();
    },
  });
  const rematch = rematchPanel({
    t, api: ctx.api, id, toast: ctx.toast, navigate: ctx.navigate,
    opponent: () => room.players[1 - room.you]?.username ?? "?",
  });
  let rematchLoaded = false;
  const chat = chatPanel({
    t, me: ctx.me, toast: ctx.toast, label: t("chat.title"), canWrite: chatClosedBecause,
    send: (name, text) => channel.send({ t: "chat", room: name, text }),
  });

  const pageTitle = document.title;
  // A move typed in notation ("13/7 8/7", "32-28"): for the keyboard, and for screen readers.
  const moveText = h("input", { type: "text", name: "move", autocomplete: "off", spellcheck: false,
    "aria-label": t("room.type_move"), "data-testid": "move-text" });
  const moveForm = h("form", { class: "row move-text", hidden: true, onsubmit: (event) => {
    event.preventDefault();
    const text = moveText.value.trim();
    if (!text || !room.state) return;
    act(room.state.kind === "draughts" ? { type: "move", text } : { type: "play", text });
    moveText.value = "";
  } }, moveText, h("button", { type: "submit", class: "secondary" }, t("room.play_typed")));
  const statusCard = h("div", { class: "card stack" }, matchLine, status, actions, moveForm, options, escrowLine);
  const root = h("div", { class: "room", "data-testid": "room" },
    h("section", {}, title, top, h("div", { class: "board-area" }, boardHost, between.el), bottom),
    h("aside", { class: "stack" },
      statusCard,
      result, replayBox, review.el,
      h("details", { class: "card", open: true }, h("summary", {}, t("room.moves")), log),
      chat.el,
      tools.el));
  main.append(root);

  // Why the viewer may not write in a chat room now (null: he may); the server checks the same.
  function chatClosedBecause(name) {
    if (!ctx.me) return t("chat.login");
    const over = !!room.state && !!(room.state.match ? room.state.match.result : room.state.result);
    return name === "spectators" && room.you !== null && !over && !room.aborted
      ? t("chat.after_game") : null;
  }

  // After the game the players may read and join the spectators' room (as on lichess).
  async function openSpectatorsChat() {
    chat.refresh();
    if (room.you === null || chat.has("spectators")) return;
    try {
      const found = await ctx.api.get(`/api/chat/game:${id}:spectators/history`);
      chat.history({ room: "spectators", lines: found.lines });
    } catch (error) {
      console.warn(error);
    }
  }

  function savePrefs() {
    localStorage.setItem("room-prefs", JSON.stringify({
      autoRoll: autoRoll.checked, autoConfirm: autoConfirm.checked }));
    maybeAutoAct();
  }

  const mySide = () => (room.you === null || !room.state ? null
    : room.you === room.state.white_seat ? "W" : "B");
  const seatOfSide = (side) => (side === "W" ? room.state.white_seat : 1 - room.state.white_seat);
  const nameOfSide = (side) => room.players[seatOfSide(side)]?.username ?? "?";

  function act(action) {
    if (room.pending || room.replay || history.active) return;
    if (channel.act(action)) {
      room.pending = true;
      render();
    } else {
      ctx.toast(t("net.offline"), "bad");
    }
  }

  let boardLoading = null;
  let drawn = {};  // what room.board was last given to draw (its update's argument)
  function ensureBoard() {
    if (!room.state) return Promise.resolve();
    if (!boardLoading) {
      boardLoading = (async () => {
        if (room.state.kind === "draughts") {
          boardHost.classList.add("draughts");
          const { DraughtsBoard } = await import("../board/draughts.js");
          room.board = new DraughtsBoard(boardHost, { onAction: act });
        } else {
          const { RaceBoard } = await import("../board/race.js");
          room.board = new RaceBoard(boardHost, { onAction: act });
        }
      })();
    }
    return boardLoading;
  }

  function playerCard(side) {
    const seat = seatOfSide(side);
    const presence = room.presence[seat];
    const toAct = room.state.to_act === side && !room.state.result;
    const clock = clockText(side);
    const score = room.state.match ? room.state.match.score[side] : null;
    const player = room.players[seat] || {};
    const rating = player.rating;
    return h("div", { class: `player${toAct ? " to-act" : ""}`, "data-testid": `player-${side}` },
      h("span", { class: `swatch ${side}`, "aria-hidden": "true" }),
      player.username ? avatarImg(player, 28) : null,
      h("a", { class: "name", href: `#/profile/${encodeURIComponent(nameOfSide(side))}` },
        nameOfSide(side), seat === room.you ? ` (${t("room.you")})` : ""),
      player.is_bot ? h("span", { class: "tag" }, t("profile.bot")) : null,
      rating ? h("span", { class: "rating muted", "data-testid": `rating-${side}`,
        title: rating.provisional ? t("profile.provisional") : null }, ctx.rating(rating)) : null,
      rating?.change ? h("span", { class: rating.change.delta >= 0 ? "good" : "bad", "data-testid": `rating-change-${side}` },
        ctx.signed(Math.round(rating.change.delta))) : null,
      presence && !presence.online ? h("span", { class: "offline" }, t("room.offline")) : null,
      score !== null && score !== undefined ? h("span", { class: "tag", "data-testid": `score-${side}` },
        ctx.plural("room.points", score, { n: ctx.number(score) })) : null,
      clock ? h("span", { class: `clock${clock.running ? " running" : ""}${clock.low ? " low" : ""}`,
        "aria-label": t("room.clock_of", { name: nameOfSide(side) }) }, clock.text) : null);
  }

  async function refreshPlayers() {
    // The game's end changed the ratings: read them (and each one's change) once more.
    try {
      const summary = await ctx.api.get(`/api/games/${id}`);
      room.players = summary.players;
      render();
    } catch (error) {
      console.warn(error);
    }
  }

  function clockText(side) {
    const c = room.clock;
    if (!c || c.white === null) return null;
    let left = side === "W" ? c.white : c.black;
    const running = c.running !== null && c.running === seatOfSideIndex(side) && !room.state.result;
    if (running) {
      const elapsed = (performance.now() - room.clockAt) / 1000;
      const delay = c.delay_left || 0;
      left = Math.max(0, left - Math.max(0, elapsed - delay));
    }
    return { text: ctx.clock(left), running, low: running && left < 20 };
  }

  const sideOfSeat = (seat, white) => (seat === white ? "W" : "B");

  // The clock's sides are colours: 0 is White, 1 is Black.
  const seatOfSideIndex = (side) => (side === "W" ? 0 : 1);

  function statusText() {
    const s = room.state;
    if (room.aborted) {
      const names = room.aborted.absent.map((seat) => room.players[seat]?.username ?? "?");
      return t("room.aborted", { name: names.join(", ") });
    }
    if (s.result || (s.match && s.match.result)) return t("room.finished");
    if (room.pending) return t("room.sending");
    if (!s.to_act) return t("room.waiting");
    const mine = s.to_act === mySide();
    if (s.phase === "doubled") {
      return mine ? t("room.you_are_doubled", { value: s.cube.value * 2 })
        : t("room.doubled_waiting", { name: nameOfSide(s.to_act) });
    }
    if (s.phase === "resigning" && s.resign_offer) {
      return mine ? t("room.resign_offered", { name: nameOfSide(s.resign_offer.side), level: levelName(s.resign_offer.level) })
        : t("room.resign_waiting");
    }
    if (s.draw_offer && s.draw_offer !== mySide() && mySide()) return t("room.draw_offered");
    if (mine && s.phase === "roll") {  // "or double" only where the server offers the cube
      return room.legal?.some((a) => a.type === "double") ? t("room.your_roll_or_double") : t("room.your_roll");
    }
    if (mine) return t("room.your_move");
    return t("room.their_turn", { name: nameOfSide(s.to_act) });
  }

  function levelName(level) {
    return t(`result.level_${level}`);
  }

  // The viewer's side below, the other above; turned round, the other way.
  function renderPlayers() {
    const seat = mySide() || "W";
    const below = room.flipped ? (seat === "W" ? "B" : "W") : seat;
    clear(top).append(playerCard(below === "W" ? "B" : "W"));
    clear(bottom).append(playerCard(below));
  }

  function renderActions() {
    clear(actions);
    const legal = room.replay || history.active ? null : room.legal;
    const moving = !!legal && room.you !== null && legal.some((a) => a.type === "move");
    moveForm.hidden = !moving;
    if (moving) moveText.placeholder = room.state.kind === "draughts" ? "32-28" : "13/7 8/7";
    if (!legal || room.you === null) return;
    const types = new Set(legal.map((a) => a.type));
    for (const type of BUTTONS) {
      if (!types.has(type)) continue;
      if (type === "offer_draw" && !legal.some((a) => a.type === "offer_draw" && !a.move)) continue;
      const label = type === "double" ? t("room.double_to", { value: (room.state.cube?.value || 1) * 2 }) : t(`action.${type}`);
      actions.append(h("button", {
        type: "button", "data-action": type, disabled: room.pending,
        class: ["drop", "decline_resign", "decline_draw"].includes(type) ? "secondary" : "",
        onclick: () => act({ type }),
      }, label));
    }
    const resigns = legal.filter((a) => a.type === "resign");
    if (resigns.length) {
      const pick = h("select", { "aria-label": t("room.resign_level") },
        resigns.map((a) => h("option", { value: a.level ?? 1 }, a.level ? levelName(a.level) : t("action.resign"))));
      actions.append(h("span", { class: "row" }, resigns.length > 1 ? pick : null,
        h("button", { type: "button", class: "danger", "data-action": "resign", disabled: room.pending,
          onclick: () => {
            if (!confirm(t("room.resign_confirm"))) return;
            const level = Number(pick.value);
            act(resigns.length > 1 ? { type: "resign", level } : resigns[0]);
          } }, t("action.resign"))));
    } else if (room.state.resign_declined && room.state.to_act === mySide()) {
      actions.append(h("span", { class: "muted note", "data-testid": "resign-note" }, t("room.resign_once")));
    }
  }

  // "Score 1–0 of 3" in the title's order of the players, and the Crawford game marked.
  function renderMatchLine() {
    const match = room.state.match;
    matchLine.hidden = !match;
    if (!match) return;
    const [a, b] = [0, 1].map((seat) => match.score[sideOfSeat(seat, room.state.white_seat)]);
    matchLine.textContent = `${t("room.match_score", { score: ctx.pair(a, b), length: ctx.number(match.length) })}`
      + (match.crawford ? ` · ${t("room.crawford")}` : "");
  }

  // What the player has in escrow now, and why (PL-4, PL-5): the server's number.
  function renderEscrow() {
    const s = room.state;
    const over = !!(s.match ? s.match.result : s.result);
    escrowLine.hidden = room.you === null || over || !!room.aborted || !room.held;
    if (escrowLine.hidden) return;
    const key = s.kind === "match" ? "room.held_match" : s.options?.cube ? "room.held_cube" : "room.held";
    escrowLine.textContent = t(key, { amount: ctx.number(room.held) });
  }

  function renderResult() {
    const s = room.state;
    const final = s.match ? s.match.result : s.result;
    result.hidden = !final;
    clear(result);
    if (!final) return;
    const winner = final.winner;
    const stake = room.summary?.stake || 0;
    const mine = mySide();
    const paid = mine && final.payout ? (final.payout[mine] || 0) * stake : null;
    append(result, [
      h("h2", {}, winner ? t("result.wins", { name: nameOfSide(winner) }) : t("result.draw")),
      s.match ? h("p", {}, t("result.match_score", { score: ctx.pair(final.score[0], final.score[1]) }))
        : final.level && s.kind !== "draughts" ? h("p", {}, t("result.points", { level: levelName(final.level), points: ctx.number(final.points) })) : null,
      h("p", { class: "muted", "data-testid": "reason" }, t("result.reason", {
        reason: reasonText(t, final, { state: s, events: room.moves.ordered(), clock: room.clock }) })),
      final.reason ? h("p", { class: "muted" }, h("a", { href: `#/rules?rule=${final.reason}`,
        "data-testid": "rule-link" }, t("rules.read_rule", { id: final.reason }))) : null,
      paid !== null && stake ? h("p", { "data-testid": "paid" },
        paid >= 0 ? t("result.you_won_fun", { amount: ctx.number(paid) })
          : t("result.you_lost_fun", { amount: ctx.number(-paid) })) : null,
      h("p", { class: "row" },
        h("a", { class: "button secondary", href: `/api/games/${id}/record`, download: `${id}.json` }, t("result.record")),
        s.kind === "draughts" ? null  // no dice in draughts: nothing to verify
          : h("a", { class: "button secondary", href: `#/verify?game=${id}`, "data-testid": "verify" }, t("result.verify"))),
      room.you !== null && ctx.me ? rematch.el : null]);
    if (room.you !== null && ctx.me && !rematchLoaded) {
      rematchLoaded = true;
      rematch.load();
    }
  }

  function renderLog() {
    const names = [0, 1].map((seat) => room.players[seat]?.username ?? "?");
    const sheet = lines(room.moves.ordered(), { t, names, number: ctx.number, pair: ctx.pair });
    history.setStops(sheet);
    renderMoves(log, sheet);
    const current = history.seq;
    for (const li of log.children) {
      const seqs = li.dataset.seqs.split(" ").map(Number);
      const here = current !== null && seqs[seqs.length - 1] === current;
      li.classList.toggle("is-current", here);
      if (here) li.setAttribute("aria-current", "step");
      li.tabIndex = -1;
    }
    const at = log.querySelector(".is-current");
    if (at) at.scrollIntoView({ block: "nearest" });
    else if (!history.active) log.scrollTop = log.scrollHeight;
  }
  // A line of the move list clicked: that position, read only.
  log.addEventListener("click", (event) => {
    const li = event.target.closest("li[data-seqs]");
    if (!li || room.replay) return;
    const seqs = li.dataset.seqs.split(" ").map(Number);
    history.show(seqs[seqs.length - 1]);
  });
  // ← → step through the history from anywhere in the room but the board and the forms.
  const onKey = (event) => {
    if (!room.state || room.replay || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, .board-host, [contenteditable]")) return;
    if (event.key === "ArrowLeft") history.step(-1);
    else if (event.key === "ArrowRight" && history.active) history.step(1);
    else if (event.key === "Escape" && history.active) history.exit();
    else return;
    event.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  // The whole list, from the record, whenever the room (re)starts from a snapshot: the
  // events before it never come over the socket. Later events join it there, once each.
  let recordAsked = 0;
  async function loadRecord() {
    const asked = ++recordAsked;
    try {
      const record = await ctx.api.get(`/api/games/${id}/record`);
      if (asked !== recordAsked) return;
      room.moves.add(record.events);
      renderLog();
      render();
    } catch (error) {
      console.warn(error);
    }
  }

  function render() {
    if (!room.state) return;
    const s = room.state;
    const over = !!(s.match ? s.match.result : s.result);  // the game, or the whole match
    // What the page shows, for people reading the DOM (and the browser tests).
    Object.assign(root.dataset, {
      v: String(room.v), pending: String(room.pending), mine: String(!!room.legal && room.you !== null),
      finished: String(over), aborted: String(!!room.aborted),
    });
    title.textContent = `${t(`variant.${s.variant}`)} · ${room.players.map((p) => p.username).join(" – ")}`;
    // The tab says when the game waits for you, as on lichess: seen from another tab.
    const waiting = !!room.legal && room.you !== null && !room.replay;
    document.title = waiting ? `● ${t("room.your_turn_tab")} · ${pageTitle}` : `${title.textContent} · ${pageTitle}`;
    renderPlayers();
    status.textContent = statusText();
    renderMatchLine();
    renderEscrow();
    statusCard.hidden = over;  // the result card says it all
    options.hidden = room.you === null || s.kind === "draughts" || over || !!room.aborted;
    renderActions();
    renderResult();
    review.update(s.variant, over);
    const past = room.replay ? room.replay.frames[room.replay.at] : history.active ? history.state() || drawn.state || s : null;
    const shown = past || s;
    const legal = past ? null : room.legal;
    const prefs = prefsOf(ctx);
    const mirror = prefs.home === "left";
    root.dataset.history = history.active ? String(history.seq) : "";
    tools.update({ state: shown, flipped: room.flipped, prefs });
    // Redraw the board only for what it shows: a redraw drops a picked piece or a drag, and
    // frames such as presence, a clock or a refusal come at any moment of a move.
    if (room.board && (shown !== drawn.state || legal !== drawn.legal || room.you !== drawn.you
        || room.flipped !== drawn.flip || mirror !== drawn.mirror)) {
      const live = !past && drawn.state && !drawn.past;
      drawn = { state: shown, legal, you: room.you, flip: room.flipped, mirror, past: !!past };
      room.board.update(drawn);
      if (live) soundOf(room.board.changes);
      fitBoard();
    }
  }

  // What moved on the live board makes its sound: a checker put down, or a hit.
  function soundOf(changes) {
    if (!changes || !changes.moves) return;
    sound(changes.hit ? "hit" : "move");
  }

  // The board as large as the window lets it be with both players' rows in view, on a
  // phone as on a laptop (issue 17): the height left under all that is above the board
  // (header, banner, title, the opponent's row), less the player's own row below it,
  // times the board's own shape (its viewBox) is the widest it may be. Measured, since
  // the header wraps and a banner comes and goes; CSS keeps a guess until then.
  function fitBoard() {
    const box = boardHost.querySelector("svg")?.viewBox?.baseVal;
    if (!box || !box.width || !box.height) return;
    const above = boardHost.getBoundingClientRect().top + window.scrollY;
    const below = bottom.getBoundingClientRect().height + FIT_MARGIN;
    const height = Math.max(MIN_BOARD_HEIGHT, window.innerHeight - above - below);
    boardHost.style.setProperty("--board-fit", `${Math.floor((height * box.width) / box.height)}px`);
  }
  const fitting = new ResizeObserver(() => fitBoard());
  for (const el of [document.getElementById("top"), document.getElementById("banner"), title, top, bottom]) {
    if (el) fitting.observe(el);
  }
  window.addEventListener("resize", fitBoard);

  function maybeAutoAct() {
    const legal = room.legal;
    if (!legal || room.pending || room.you === null) return;
    const types = new Set(legal.map((a) => a.type));
    if (autoRoll.checked && types.has("roll") && !types.has("double")) {
      act({ type: "roll" });
    } else if (autoConfirm.checked && types.has("confirm")
        && ![...types].some((x) => !["confirm", "undo", "resign"].includes(x))) {
      act({ type: "confirm" });
    }
  }

  // A game of the match is over and the next begins: its result over the board first.
  function showGameOver(event) {
    const match = room.state?.match;
    if (!match || event.score.some((n) => n >= match.length)) return;  // the match's own end: the result card
    const white = room.state.white_seat;
    const winner = event.result?.winner;
    between.show({
      game: event.game, points: event.result?.points ?? 0, length: match.length,
      winner: winner ? room.players[winner === "W" ? white : 1 - white]?.username ?? "?" : null,
      score: [0, 1].map((seat) => event.score[sideOfSeat(seat, white) === "W" ? 0 : 1]),
    });
  }

  function eventSound(event) {
    if (event.type === "rolled" || (event.type === "opening" && event.dice)) sound("dice");
    else if (event.type === "doubled" || event.type === "beavered") sound("double");
    else if (event.type === "finished" || event.type === "match_finished") sound("end");
  }

  // "Your turn" sounds when the turn comes to the player, not for each menu of his own turn.
  let turnWasMine = false;
  function turnSound() {
    const mine = !!room.legal && room.you !== null;
    if (mine && !turnWasMine && room.state?.to_act) sound("turn");
    turnWasMine = mine;
  }

  function announce(event) {
    if (event.type === "passed") ctx.toast(t("room.no_move", { name: nameOfSide(event.side) }));
    if (event.type === "timeout") ctx.toast(t("room.timeout", { name: nameOfSide(event.side) }));
  }

  function startReplay() {
    review.forget();
    history.go(0);
  }

  function renderReplay() {
    clear(replayBox);
    const over = !!(room.state && (room.state.result || room.state.match?.result));
    replayBox.hidden = !over && !history.active && !room.replay;
    if (replayBox.hidden) return;
    if (!room.replay && !history.active) {
      replayBox.append(h("button", { type: "button", class: "secondary", "data-testid": "replay",
        onclick: startReplay }, t("replay.start")));
      return;
    }
    if (!room.replay) {
      const at = history.at;
      const count = history.stops.length;
      replayBox.append(
        h("button", { type: "button", class: "secondary", "aria-label": t("replay.first"), onclick: () => history.go(0) }, "«"),
        h("button", { type: "button", class: "secondary", "aria-label": t("replay.previous"), onclick: () => history.step(-1) }, "◀"),
        h("span", { "data-testid": "history-at" }, t("replay.position", { n: ctx.number(at + 1), of: ctx.number(count) })),
        h("button", { type: "button", class: "secondary", "aria-label": t("replay.next"), onclick: () => history.step(1) }, "▶"),
        h("button", { type: "button", class: "secondary", "aria-label": t("replay.last"), onclick: () => history.go(count - 1) }, "»"),
        h("button", { type: "button", "data-testid": "history-exit", onclick: () => history.exit() },
          over ? t("replay.exit") : t("replay.back_to_game")));
      return;
    }
    const { frames, onMove } = room.replay;
    const go = (at) => {
      room.replay.at = Math.max(0, Math.min(frames.length - 1, at));
      if (onMove) onMove(room.replay.at);  // the review follows the board
      renderReplay();
      render();
    };
    replayBox.append(
      h("button", { type: "button", class: "secondary", "aria-label": t("replay.first"), onclick: () => go(0) }, "«"),
      h("button", { type: "button", class: "secondary", "aria-label": t("replay.previous"), onclick: () => go(room.replay.at - 1) }, "◀"),
      h("span", {}, t(onMove ? "review.decision" : "replay.position", { n: ctx.number(room.replay.at + 1), of: ctx.number(frames.length) })),
      h("button", { type: "button", class: "secondary", "aria-label": t("replay.next"), onclick: () => go(room.replay.at + 1) }, "▶"),
      h("button", { type: "button", class: "secondary", "aria-label": t("replay.last"), onclick: () => go(frames.length - 1) }, "»"),
      h("button", { type: "button", class: "secondary", onclick: () => { room.replay = null; review.forget(); renderReplay(); render(); } }, t("replay.exit")));
  }

  function presenceBanner() {
    const away = room.presence.find((p, seat) => p && !p.online && seat !== room.you);
    if (!away || room.state?.result || room.aborted || room.summary?.status === "finished") {
      ctx.banner("");
      return;
    }
    const left = Math.max(0, Math.round(away.deadline - away.now - (performance.now() - away.at) / 1000));
    ctx.banner(t("room.opponent_away", { name: room.players[away.seat]?.username ?? "?", seconds: ctx.number(left) }));
  }

  const redraw = drawOnce(() => {
    render();
    renderReplay();
    maybeAutoAct();
  });
  const channel = new Channel(`/ws/game/${id}`, {
    onFrame(frame) {
      const d = frame.d;
      switch (frame.t) {
        case "hello":
          room.you = d.you;
          room.players = d.players;
          break;
        case "snapshot":
          room.v = frame.v;
          room.summary = d;
          room.state = { ...d.state };
          room.legal = d.legal;
          room.clock = d.clock;
          room.clockAt = performance.now();
          room.held = d.held ?? 0;
          room.presence = d.presence.map((p) => ({ ...p, at: performance.now() }));
          room.aborted = d.aborted || null;
          room.pending = false;
          turnWasMine = !!d.legal;  // no "your turn" sound for opening the room
          loadRecord();
          break;
        case "event":
          room.moves.add([d]);
          announce(d);
          eventSound(d);
          if (d.type === "game_finished") showGameOver(d);
          if (d.type === "match_finished") between.hide();  // a forfeit ends it with the game
          if (d.type === "finished" || d.type === "match_finished") ctx.refreshMe();
          return renderLog();
        case "state":
          room.v = frame.v;
          room.state = d;
          if (d.to_act !== mySide()) turnWasMine = false;
          if (d.held !== undefined) room.held = d.held;
          if (d.clock !== undefined) {
            room.clock = d.clock;
            room.clockAt = performance.now();
          }
          room.legal = null;
          room.pending = false;
          if (room.summary && d.result && d.kind !== "match") room.summary.status = "finished";
          if (d.match ? d.match.result : d.result) refreshPlayers();
          if (d.match ? d.match.result : d.result) openSpectatorsChat();
          break;
        case "legal":
          room.legal = d;
          room.pending = false;
          turnSound();
          break;
        case "clock":
          room.clock = d;
          room.clockAt = performance.now();
          break;
        case "presence":
          room.presence[d.seat] = { ...d, at: performance.now() };
          presenceBanner();
          break;
        case "presence_all":
          room.presence = d.map((p) => ({ ...p, at: performance.now() }));
          break;
        case "aborted":  // a player never arrived: no result, the stakes went back
          room.aborted = d;
          room.held = 0;
          room.legal = null;
          room.pending = false;
          if (room.summary) room.summary.status = "aborted";
          presenceBanner();
          ctx.refreshMe();
          break;
        case "chat":
          return chat.line(d);
        case "chat_history":
          return chat.history(d);
        case "error":
          if (d.re === "chat") return chat.refused(d);
          room.pending = false;
          if (d.error === "not_found") {
            clear(main).append(h("h1", {}, t("error.not_found")));
            return;
          }
          ctx.toast(d.message, "bad");
          break;
        default:
          return;
      }
      ensureBoard().then(redraw);
    },
    onStatus(status) {
      if (status === "lost") ctx.banner(t("net.reconnecting"), "bad");
      else presenceBanner();
    },
    onEnded: ctx.signedOut,
  });
  const ticker = setInterval(() => {
    if (!room.state) return;
    renderPlayers();
    if (room.presence.some((p) => p && !p.online)) presenceBanner();
  }, 500);
  // The player's own socket: a theme equipped in another tab repaints this board
  // too, and rematch offers come and go.
  const onUserFrame = ({ detail: frame }) => {
    if (frame.t === "me") {
      applyTheme(boardHost, frame.d.theme ?? null);
      if (frame.d.prefs && ctx.me) ctx.me.prefs = frame.d.prefs;  // changed in another tab
      setMuted(!prefsOf(ctx).sound);
      render();
    }
    if (rematchLoaded) rematch.onFrame(frame);
  };
  window.addEventListener("sheshbesh:user-frame", onUserFrame);
  return () => {
    document.title = pageTitle;
    window.removeEventListener("sheshbesh:user-frame", onUserFrame);
    document.removeEventListener("keydown", onKey);
    clearInterval(ticker);
    between.hide();
    fitting.disconnect();
    window.removeEventListener("resize", fitBoard);
    channel.close();
    if (room.board) room.board.destroy();
    ctx.banner("");
  };
}
