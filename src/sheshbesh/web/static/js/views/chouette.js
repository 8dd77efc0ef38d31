// A chouette table's room (issue 18, RULES.md §10): one board between the banker (White)
// and the captain (Black), the crew with each member's cube, the answers each seat
// still owes, the session's standings and the next game's lineup, and the chat: the
// table's, and the crew's own (CH-4), where bettors propose plays that the captain
// sees as arrows on his board. Seated people, the owner and spectators use the same
// room; each sees the buttons his own `legal` menu offers, nothing more (the server
// decides, and hides a pending double from spectators, PL-3).

import { applyTheme } from "../avatar.js";
import { ARROW_COLOURS, drawProposals, playSteps } from "../board/arrows.js";
import { Channel } from "../channel.js";
import { chatPanel } from "../chat.js";
import { cubeOf, crewParts, roleOf } from "../crew.js";
import { clear, drawOnce, h } from "../dom.js";
import { prefsOf } from "../prefs.js";

const FIT_MARGIN = 8;
const MIN_BOARD_HEIGHT = 220;
const BOARD_BUTTONS = ["roll", "undo", "confirm"];

export async function mount(main, ctx) {
  const { t } = ctx;
  const id = ctx.params.get("game");
  const room = {
    v: null, you: null, state: null, summary: null, legal: null, clock: null, clockAt: 0, pending: false,
    presence: new Map(), skew: 0,  // server time − this browser's time, in seconds
    chosen: null,  // the cubes ticked for the banker's double (null: all he may turn)
    proposals: new Map(),  // bettor's name -> {play, turn}: the crew's advice for this roll
  };
  let requestId = null;  // the lobby request of this table (its start and close routes)

  const parts = crewParts(ctx, {
    name: (seat) => playerOf(seat)?.username ?? "?",
    player: playerOf,
    online: (seat) => room.presence.get(seat)?.online !== false,
    clockOf,
    you: () => room.you,
  });

  const title = h("h1", {}, t("room.loading"));
  const top = h("div", { class: "players" });
  const bottom = h("div", { class: "players" });
  const boardHost = h("div", { class: "board-host", "data-testid": "board" });
  applyTheme(boardHost, ctx.me?.theme ?? null);
  const waitingBox = h("section", { class: "card table-waiting", hidden: true, "data-testid": "table-waiting" });
  const legend = h("ul", { class: "proposals", hidden: true, "data-testid": "proposals" });
  const status = h("p", { class: "status-line", "aria-live": "polite", "data-testid": "status" });
  const actions = h("div", { class: "actions", "data-testid": "actions" });
  const proposeText = h("input", { type: "text", autocomplete: "off", spellcheck: false, placeholder: "13/7 8/7",
    "aria-label": t("chouette.propose_label"), "data-testid": "propose-text" });
  const proposeForm = h("form", { class: "row move-text", hidden: true, "data-testid": "propose",
    onsubmit: (event) => {
      event.preventDefault();
      const play = proposeText.value.trim();
      if (!playSteps(play)) return ctx.toast(t("chouette.propose_bad"), "bad");
      if (channel.send({ t: "chat", room: "crew", text: play, play })) proposeText.value = "";
      else ctx.toast(t("net.offline"), "bad");
    } }, proposeText, h("button", { type: "submit", class: "secondary" }, t("chouette.propose")));
  const nextLine = h("p", { class: "next-lineup", hidden: true, "data-testid": "next-lineup" });
  const countdown = h("p", { class: "countdown", hidden: true, "data-testid": "countdown" });
  const statusCard = h("div", { class: "card stack table-status" }, status, nextLine, countdown, actions, proposeForm);
  const crewCard = h("section", { class: "card", "aria-labelledby": "crew-title" },
    h("h2", { id: "crew-title" }, t("chouette.crew")), h("div", {}));
  const sessionCard = h("section", { class: "card", "aria-labelledby": "session-title", "data-testid": "session" },
    h("h2", { id: "session-title" }, t("chouette.session_title")), h("div", {}));
  const chat = chatPanel({
    t, me: ctx.me, toast: ctx.toast, label: t("chat.title"), canWrite: chatClosedBecause,
    send: (name, text) => channel.send({ t: "chat", room: name, text }),
  });
  const root = h("div", { class: "room chouette", "data-testid": "room" },
    h("section", {}, title, waitingBox, top, h("div", { class: "board-area" }, boardHost), legend, bottom),
    h("aside", { class: "stack" }, statusCard, crewCard, sessionCard, chat.el));
  main.append(root);

  // --- reading the table ------------------------------------------------------------------

  function playerOf(seat) {
    return room.state?.players.find((p) => p.seat === seat) ?? null;
  }
  const game = () => room.state?.game ?? null;
  const seated = () => (room.state ? room.state.players.filter((p) => !p.left) : []);
  const isOwner = () => room.you === 0;  // the owner took the first seat (docs/protocol.md)
  const between = () => !!room.state && !room.state.playing && !room.state.closed;
  const over = () => !!room.state?.closed;
  const myRole = () => roleOf(game(), room.you);
  const inCrew = () => ["captain", "bettor"].includes(myRole());  // of this game, or the last
  const myCrew = () => inCrew() && !!room.state?.playing;

  function clockOf(seat) {
    const c = room.clock;
    if (!c || !c.seats || c.seats[seat] === undefined || c.seats[seat] === null) return null;
    let left = c.seats[seat];
    const running = (c.running || []).includes(seat) && !!room.state?.playing;
    if (running) {
      const elapsed = (performance.now() - room.clockAt) / 1000;
      left = Math.max(0, left - Math.max(0, elapsed - (c.delay_left?.[seat] || 0)));
    }
    return { text: ctx.clock(left), running, low: running && left < 20 };
  }

  // Why the viewer may not write in a chat room now (null: he may); the server checks the same.
  function chatClosedBecause(name) {
    if (!ctx.me) return t("chat.login");
    return name === "spectators" && room.you !== null && !over() ? t("chat.after_game") : null;
  }

  // --- acting -----------------------------------------------------------------------------

  function act(action) {
    if (room.pending) return;
    if (channel.act(action)) {
      room.pending = true;
      render();
    } else {
      ctx.toast(t("net.offline"), "bad");
    }
  }

  async function tableRoute(what) {
    try {
      if (!requestId) {
        const open = await ctx.api.get("/api/requests");
        requestId = open.find((r) => r.game === id)?.id ?? null;
        if (!requestId) throw new Error(t("chouette.no_request"));
      }
      await ctx.api.post(`/api/requests/${requestId}/${what}`);
      if (what !== "start") await ctx.refreshMe();
      if (what === "leave") ctx.navigate("#/");
    } catch (error) {
      ctx.toast(error.message, "bad");
    }
  }

  // --- drawing ----------------------------------------------------------------------------

  let board = null;
  let boardLoading = null;
  let drawn = {};
  function ensureBoard() {
    if (!boardLoading) {
      boardLoading = import("../board/race.js").then(({ RaceBoard }) => {
        board = new RaceBoard(boardHost, { onAction: act });
      });
    }
    return boardLoading;
  }

  function statusText() {
    const s = room.state;
    const g = game();
    if (s.closed) return t("chouette.closed");
    if (room.pending) return t("room.sending");
    if (!g) return t("chouette.waiting_players", { n: ctx.number(seated().length), m: ctx.number(s.capacity) });
    if (!s.playing || g.phase === "finished") {
      const winner = g.winner === "crew" ? t("chouette.crew_wins") : t("chouette.banker_wins", { name: nameOf(g.banker) });
      return `${t("chouette.game_over", { n: ctx.number(s.number) })} ${winner}`;
    }
    const mine = g.waiting_for.includes(room.you);
    if (g.phase === "crew_answers") {
      if (mine) return t("chouette.you_are_doubled", { name: nameOf(g.banker), value: ctx.number(cubeOf(g, room.you).cube * 2) });
      return t("chouette.waiting_answers", { names: g.waiting_for.map(nameOf).join(", ") });
    }
    if (g.phase === "banker_answers") {
      return mine ? t("chouette.answer_crew") : t("chouette.banker_answering", { name: nameOf(g.banker) });
    }
    if (mine) return t("chouette.your_turn");
    if (room.legal?.some((a) => a.type === "double")) return t("chouette.you_may_double");
    const seat = g.waiting_for[0];
    return t("chouette.to_play", { name: nameOf(seat), role: t(`chouette.role_${roleOf(g, seat)}`) });
  }

  function nameOf(seat) {
    return playerOf(seat)?.username ?? "?";
  }

  function renderActions() {
    clear(actions);
    const legal = room.legal;
    if (legal && room.you !== null) {
      const types = new Set(legal.map((a) => a.type));
      for (const type of BOARD_BUTTONS) {
        if (!types.has(type)) continue;
        actions.append(h("button", { type: "button", "data-action": type, disabled: room.pending,
          onclick: () => act({ type }) }, t(`action.${type}`)));
      }
      const double = legal.find((a) => a.type === "double");
      if (double) actions.append(doubleControl(double));
      const answers = legal.filter((a) => a.type === "take" || a.type === "drop");
      if (answers.length) actions.append(answerControls(answers));
    }
    if (between() && room.you !== null) actions.append(betweenControls());
    actions.hidden = !actions.childElementCount;
  }

  // The banker doubles any of the crew's cubes he may turn (CH-5; all of them unless he
  // unticks some); a member doubles his own (CH-7).
  function doubleControl(double) {
    const g = game();
    if (room.you !== g.banker) {
      const value = (cubeOf(g, room.you)?.cube ?? 1) * 2;
      return h("button", { type: "button", "data-action": "double", disabled: room.pending,
        onclick: () => act({ type: "double" }) }, t("chouette.double_mine", { value: ctx.number(value) }));
    }
    const offered = double.cubes;
    if (!room.chosen || room.chosen.some((seat) => !offered.includes(seat))) room.chosen = [...offered];
    const boxes = offered.map((seat) => h("label", { class: "check" },
      h("input", { type: "checkbox", checked: room.chosen.includes(seat), "data-cube": String(seat),
        onchange: (event) => {
          room.chosen = event.target.checked ? [...room.chosen, seat] : room.chosen.filter((s) => s !== seat);
          button.disabled = room.pending || !room.chosen.length;
          button.textContent = ctx.plural("chouette.double_cubes", room.chosen.length, { n: ctx.number(room.chosen.length) });
        } }),
      t("chouette.cube_of", { name: nameOf(seat), value: ctx.number((cubeOf(g, seat)?.cube ?? 1) * 2) })));
    const button = h("button", { type: "button", "data-action": "double", disabled: room.pending || !room.chosen.length,
      onclick: () => act({ type: "double", cubes: offered.filter((seat) => room.chosen.includes(seat)) }) },
      ctx.plural("chouette.double_cubes", room.chosen.length, { n: ctx.number(room.chosen.length) }));
    return h("fieldset", { class: "double-choice", "data-testid": "double-choice" },
      h("legend", {}, t("chouette.double_which")), boxes, button);
  }

  // One line per cube to answer: a member answers his own, the banker each member's (CH-7).
  function answerControls(answers) {
    const g = game();
    const cubes = [...new Set(answers.map((a) => a.cube))];
    return h("div", { class: "answers stack tight", "data-testid": "answers" }, cubes.map((seat) => {
      const value = ctx.number((cubeOf(g, seat)?.cube ?? 1) * 2);
      const label = seat === room.you ? t("chouette.your_cube", { value })
        : t("chouette.cube_of", { name: nameOf(seat), value });
      return h("div", { class: "row answer", dataset: { cube: String(seat) } },
        h("span", { class: "answer-what" }, label),
        answers.filter((a) => a.cube === seat).map((a) => h("button", {
          type: "button", "data-action": a.type, "data-cube": String(seat), disabled: room.pending,
          class: a.type === "drop" ? "secondary" : "", onclick: () => act(a) }, t(`action.${a.type}`))));
    }));
  }

  // Between games: the owner starts the next game or closes the table; others may leave.
  function betweenControls() {
    const box = h("span", { class: "row" });
    if (isOwner()) {
      box.append(h("button", { type: "button", "data-testid": "start-game", disabled: seated().length < 3,
        title: seated().length < 3 ? t("lobby.start_needs") : null, onclick: () => tableRoute("start") },
      t(game() ? "chouette.start_next" : "chouette.start")));
      if (seated().length < room.state.capacity) {
        box.append(h("button", { type: "button", class: "secondary", "data-testid": "add-bot",
          onclick: () => tableRoute("bot") }, t("chouette.add_bot")));
      }
      box.append(h("button", { type: "button", class: "secondary", "data-testid": "close-table", onclick: () => {
        if (confirm(t("chouette.close_confirm"))) tableRoute("close");
      } }, t("chouette.close")));
    } else {
      box.append(h("button", { type: "button", class: "secondary", "data-testid": "leave-table",
        onclick: () => tableRoute("leave") }, t("chouette.leave")));
    }
    return box;
  }

  function renderSeats() {
    const g = game();
    clear(top);
    clear(bottom);
    if (!g) return;
    // The crew sees its own side below, as a player sees his; the banker and spectators White.
    const crewView = inCrew();
    const banker = parts.seatCard(g, g.banker, "W");
    const captain = parts.seatCard(g, g.captain, "B");
    (crewView ? top : bottom).append(banker);
    (crewView ? bottom : top).append(captain);
  }

  function renderWaiting() {
    const g = game();
    waitingBox.hidden = !!g;
    if (g) return;
    clear(waitingBox).append(
      h("p", {}, t("chouette.waiting_players", { n: ctx.number(seated().length), m: ctx.number(room.state.capacity) })),
      h("ul", { class: "waiting-seats" }, seated().map((p) => h("li", {}, p.username))),
      h("p", { class: "muted" }, t(isOwner() ? "chouette.owner_starts" : "chouette.owner_will_start")));
  }

  function renderCrew() {
    const g = game();
    const body = crewCard.lastChild;
    clear(body);
    crewCard.hidden = !g;
    if (g) body.append(parts.crewList(g));
  }

  function renderSession() {
    const s = room.state;
    const body = sessionCard.lastChild;
    clear(body).append(
      h("p", { class: "muted" }, t("chouette.table_line", { n: ctx.number(s.number), seats: ctx.number(seated().length),
        capacity: ctx.number(s.capacity), stake: t("fun.amount", { amount: ctx.number(room.summary?.stake ?? 0) }) })),
      parts.standings(s, room.summary?.stake ?? 0));
  }

  // Between games: who banks and captains next, and when the next game starts by itself.
  function renderNext() {
    const s = room.state;
    const lineup = s.playing || s.closed || !s.game ? null : parts.lineupText(s.next);
    nextLine.hidden = !lineup;
    nextLine.textContent = lineup ?? "";
    const left = countdownText();
    countdown.hidden = !left;
    countdown.textContent = left ?? "";
  }

  function countdownText() {
    const at = room.state?.next_game_at;
    if (!at || !between()) return null;
    const left = Math.max(0, at - (Date.now() / 1000 + room.skew));
    return t("chouette.next_game_in", { time: ctx.clock(left) });
  }

  // Bettors' proposals for the captain's roll (CH-4): those made for the turn on the board.
  function turnKey() {
    const b = game()?.board;
    return b ? `${b.position}|${(b.dice || []).join("")}` : "";
  }
  function shownProposals() {
    const key = turnKey();
    const g = game();
    if (!g || !room.state.playing || g.board.turn !== "B") return [];
    return [...room.proposals].filter(([, p]) => p.turn === key)
      .map(([name, p], i) => ({ name, play: p.play, colour: ARROW_COLOURS[i % ARROW_COLOURS.length] }));
  }

  function renderLegend(proposals) {
    clear(legend);
    legend.hidden = !proposals.length;
    for (const p of proposals) {
      const swatch = h("span", { class: "swatch-line" });
      swatch.style.backgroundColor = p.colour;  // the CSSOM: the page's CSP refuses style attributes
      legend.append(h("li", {}, swatch, t("chouette.proposal", { name: p.name, play: p.play })));
    }
  }

  function render() {
    if (!room.state) return;
    const s = room.state;
    const g = game();
    Object.assign(root.dataset, {
      v: String(room.v), pending: String(room.pending), mine: String(!!room.legal && room.you !== null),
      number: String(s.number), phase: g ? (s.playing ? g.phase : "between") : "waiting",
      finished: String(!!g && g.phase === "finished"), closed: String(!!s.closed),
    });
    title.textContent = `${t("lobby.chouette")} · ${t("chouette.game_n", { n: ctx.number(Math.max(1, s.number)) })}`;
    renderWaiting();
    renderSeats();
    status.textContent = statusText();
    renderActions();
    proposeForm.hidden = !(myRole() === "bettor" && s.playing && g?.phase === "board" && g.board.to_act === "B"
      && !!g.board.dice && !cubeOf(g, room.you)?.out);
    renderCrew();
    renderSession();
    renderNext();
    boardHost.hidden = !g;
    const proposals = myCrew() ? shownProposals() : [];
    renderLegend(proposals);
    if (board && g) {
      const mover = myRole() === "banker" || myRole() === "captain";
      const legal = mover && s.playing ? room.legal : null;
      const you = room.you === null || !myRole() ? null : myRole() === "banker" ? 0 : 1;
      const mirror = prefsOf(ctx).home === "left";
      const key = proposals.map((p) => `${p.name}:${p.play}`).join(",");
      if (g.board !== drawn.state || legal !== drawn.legal || you !== drawn.you || mirror !== drawn.mirror
          || key !== drawn.key) {
        drawn = { state: g.board, legal, you, mirror, key };
        board.update({ state: g.board, legal, you, mirror });
        drawProposals(board, "B", proposals);
        fitBoard();
      }
    }
  }

  function tick() {
    for (const el of root.querySelectorAll("[data-clock-seat]")) {
      const clock = clockOf(Number(el.dataset.clockSeat));
      if (!clock) continue;
      el.textContent = clock.text;
      el.classList.toggle("low", clock.low);
    }
    if (!countdown.hidden) countdown.textContent = countdownText() ?? "";
  }

  // The board as large as the window lets it be with both seat cards in view (as in game.js).
  function fitBoard() {
    const box = boardHost.querySelector("svg")?.viewBox?.baseVal;
    if (!box || !box.width || !box.height) return;
    const above = boardHost.getBoundingClientRect().top + window.scrollY;
    const below = bottom.getBoundingClientRect().height + legend.getBoundingClientRect().height + FIT_MARGIN;
    const height = Math.max(MIN_BOARD_HEIGHT, window.innerHeight - above - below);
    boardHost.style.setProperty("--board-fit", `${Math.floor((height * box.width) / box.height)}px`);
  }
  window.addEventListener("resize", fitBoard);

  // --- the socket -------------------------------------------------------------------------

  function onChatLine(line) {
    if (line.room === "crew") {
      if (line.game !== crewOf) return;  // a line of an earlier game's crew
      if (line.play && line.user) {
        room.proposals.set(line.user.username, { play: line.play, turn: turnKey() });
        render();
      }
    }
    chat.line(line);
  }

  // The crew's room is that game's crew's (CH-4): its tab opens when the viewer joins a
  // game's crew, and goes when the next game makes him banker or its crew is another.
  let crewOf = null;  // the number of the game whose crew's room the viewer reads
  function followCrew() {
    const number = inCrew() && !room.state.closed ? room.state.number : null;
    if (number === crewOf) return;
    chat.forget("crew");
    room.proposals.clear();
    crewOf = number;
    if (number !== null) chat.history({ room: "crew", lines: [] });
  }

  function adopt(state) {
    const before = game();
    room.state = state;
    const g = game();
    if (!g || !before || g.board.position !== before.board.position) room.chosen = null;
    followCrew();
  }

  let started = false;  // "Start" from the lobby row: done once the owner is here
  function startFromLobby() {
    if (started || !room.state || ctx.params.get("start") !== "1") return;
    started = true;
    history.replaceState(null, "", `#/game/${id}`);
    if (isOwner() && between()) tableRoute("start");
  }

  const redraw = drawOnce(() => {
    render();
    startFromLobby();
  });
  const channel = new Channel(`/ws/game/${id}`, {
    onFrame(frame) {
      const d = frame.d;
      switch (frame.t) {
        case "hello":
          room.you = d.you;
          break;
        case "snapshot":
          room.v = frame.v;
          room.summary = d;
          adopt({ ...d.state });
          room.legal = d.legal;
          room.clock = d.clock;
          room.clockAt = performance.now();
          room.pending = false;
          room.presence = new Map(d.presence.map((p) => [p.seat, p]));
          if (d.presence[0]) room.skew = d.presence[0].now - Date.now() / 1000;
          break;
        case "event":
          if (d.type === "finished" || d.type === "closed") ctx.refreshMe();
          return;
        case "state":
          room.v = frame.v;
          adopt(d);
          if (d.clock !== undefined) {
            room.clock = d.clock;
            room.clockAt = performance.now();
          }
          room.legal = null;
          room.pending = false;
          break;
        case "legal":
          room.legal = d;
          room.pending = false;
          break;
        case "presence":
          room.presence.set(d.seat, d);
          room.skew = d.now - Date.now() / 1000;
          break;
        case "presence_all":
          room.presence = new Map(d.map((p) => [p.seat, p]));
          break;
        case "chat":
          return onChatLine(d);
        case "chat_history":
          if (d.room === "crew" && crewOf === null) return;
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
    onStatus(state) {
      ctx.banner(state === "lost" ? t("net.reconnecting") : "", state === "lost" ? "bad" : "");
    },
    onEnded: ctx.signedOut,
  });
  const ticker = setInterval(tick, 500);
  return () => {
    clearInterval(ticker);
    window.removeEventListener("resize", fitBoard);
    channel.close();
    if (board) board.destroy();
    ctx.banner("");
  };
}
