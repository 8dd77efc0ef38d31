// The lobby: post a game request, accept one with a click, and watch games being
// played now. Everything updates live from the lobby socket (docs/protocol.md).
// A chouette table (issue 18) is a request with seats: people take a seat from its
// row, and its owner starts it from the table's room once three are seated.

import { avatarImg } from "../avatar.js";
import { Channel } from "../channel.js";
import { chatPanel } from "../chat.js";
import { clear, h } from "../dom.js";

const CHOUETTE = "chouette";  // the form's choice for a table; posted as backgammon with seats
const CLOCKS = ["untimed", "delay 12s + 5m", "delay 12s + 10m", "delay 15s + 30m",
  "fischer 3m + 2s", "fischer 5m + 5s", "fischer 15m + 10s"];

export async function mount(main, ctx) {
  const { t, api } = ctx;
  const requests = new Map();
  const games = new Map();
  const requestsBody = h("tbody");
  const gamesBody = h("tbody");
  const mine = h("div");
  // One game at a time (issue 17): while the player is in a live game the form and the
  // accept buttons say so instead of starting a second game he would never see.
  const busyNote = h("p", { class: "notice", "data-testid": "busy", hidden: true });
  const variants = await api.get("/api/requests/variants");
  const presets = ctx.me ? await api.get("/api/requests/quick") : [];
  // The club now (lichess's "N players, M games"): the count comes with the lobby's
  // first frame and then every few seconds when it changed.
  let online = null;
  const clubNow = h("p", { class: "muted club-now", "data-testid": "online" });
  const bots = ctx.me ? await api.get("/api/bots") : [];
  const friends = ctx.me ? await api.get("/api/friends").then((f) => f.friends || [], () => []) : [];

  const form = ctx.me ? requestForm(ctx, variants, bots, friends) : h("p", {},
    h("a", { href: "#/login" }, t("nav.login")), " · ", h("a", { href: "#/register" }, t("nav.register")),
    " — ", t("lobby.login_to_play"));

  const chat = chatPanel({
    t, me: ctx.me, toast: ctx.toast, label: t("chat.room_lobby"),
    canWrite: () => (ctx.me ? null : t("chat.login")),
    send: (room, text) => channel.send({ t: "chat", room, text }),
  });

  main.append(
    mine,
    clubNow,
    presets.length ? quickRow(ctx, presets, () => busyNote.hidden === false) : null,
    h("div", { class: "grid two lobby" },
      h("div", {}, h("section", { class: "card", "aria-labelledby": "requests-title" },
        h("h1", { id: "requests-title" }, t("lobby.requests")),
        h("table", { class: "responsive", "data-testid": "requests" },
          h("thead", {}, h("tr", {},
            h("th", {}, t("lobby.player")), h("th", {}, t("lobby.game")),
            h("th", { class: "num" }, t("lobby.stake")), h("th", {}, t("lobby.clock")), h("th", {}, ""))),
          requestsBody)),
      h("section", { class: "card", "aria-labelledby": "live-title" },
      h("h2", { id: "live-title" }, t("lobby.now_playing")),
      h("table", { class: "responsive", "data-testid": "live" },
        h("thead", {}, h("tr", {},
          h("th", {}, t("lobby.players")), h("th", {}, t("lobby.game")),
          h("th", { class: "num" }, t("lobby.stake")), h("th", {}, t("lobby.score")),
          h("th", { class: "num" }, t("lobby.spectators")), h("th", {}, ""))),
        gamesBody)),
      bots.length ? botsCard(ctx, bots, () => form) : null),
      h("div", {}, h("section", { class: "card", "aria-labelledby": "new-title" },
        h("h2", { id: "new-title" }, t("lobby.new_request")), busyNote, form), chat.el)),
  );

  function render() {
    clubNow.textContent = online === null ? "" : t("lobby.club_now", {
      players: ctx.number(online), games: ctx.number(games.size) });
    const own = ctx.me && [...games.values()].find((g) => g.players.some((p) => p.id === ctx.me.id));
    const busy = ctx.me ? ctx.me.playing || own?.id || null : null;
    clear(busyNote);
    busyNote.hidden = !busy;
    if (busy) {
      busyNote.append(t("lobby.busy"), " ", h("a", { href: `#/game/${busy}` }, t("lobby.return")));
    }
    if (ctx.me) form.querySelector("button[type=submit]").disabled = !!busy;
    clear(requestsBody);
    if (!requests.size) {
      requestsBody.append(h("tr", {}, h("td", { class: "empty wide", colspan: 5 }, t("lobby.no_requests"))));
    }
    for (const request of requests.values()) {
      requestsBody.append(request.table ? tableRow(ctx, request, busy) : requestRow(ctx, request, busy));
    }
    clear(gamesBody);
    if (!games.size) {
      gamesBody.append(h("tr", {}, h("td", { class: "empty wide", colspan: 6 }, t("lobby.no_games"))));
    }
    for (const game of games.values()) gamesBody.append(gameRow(ctx, game));
    clear(mine);
    if (own) {
      mine.append(h("p", { class: "card" }, t("lobby.your_game"), " ",
        h("a", { class: "button", href: `#/game/${own.id}` }, t("lobby.return"))));
    }
  }

  const channel = new Channel("/ws/lobby", {
    onFrame(frame) {
      if (frame.t === "lobby") {
        requests.clear();
        games.clear();
        for (const r of frame.d.requests) requests.set(r.id, r);
        for (const g of frame.d.games) games.set(g.id, g);
        online = frame.d.online ?? null;
      } else if (frame.t === "online") {
        online = frame.d.players;
      } else if (frame.t === "request_added") {
        requests.set(frame.d.id, frame.d);
      } else if (frame.t === "request_removed") {
        const gone = requests.get(frame.d.id);
        requests.delete(frame.d.id);
        if (gone && seatedAt(ctx, gone.table)) ctx.refreshMe();  // his table closed
      } else if (frame.t === "table_updated") {
        const request = requests.get(frame.d.request);
        if (request) request.table = frame.d.table;
        if (frame.d.table.status === "live") games.set(frame.d.table.id, frame.d.table);
      } else if (frame.t === "game_started" || frame.t === "game_updated") {
        if (frame.d.status === "live") games.set(frame.d.id, frame.d);
        const players = frame.d.players || [];
        if (frame.t === "game_started" && ctx.me && players.some((p) => p.id === ctx.me.id)) {
          ctx.me.playing = frame.d.id;
          ctx.refreshMe();
          ctx.navigate(`#/game/${frame.d.id}`);
          return;
        }
      } else if (frame.t === "game_finished") {
        games.delete(frame.d.id);
        if (ctx.me && ctx.me.playing === frame.d.id) {
          ctx.me.playing = null;
          ctx.refreshMe();
        }
      } else if (frame.t === "chat") {
        return chat.line(frame.d);
      } else if (frame.t === "chat_history") {
        return chat.history(frame.d);
      } else if (frame.t === "error" && frame.d.re === "chat") {
        return chat.refused(frame.d);
      } else {
        return;
      }
      render();
    },
    onStatus(status) {
      ctx.banner(status === "lost" ? t("net.reconnecting") : "", status === "lost" ? "bad" : "");
    },
    onEnded: ctx.signedOut,
  });
  render();
  return () => channel.close();
}

// Quick pairing: one click plays a common game (a matching request of someone else is
// accepted, else this one is posted and waits in the list for the next click).
function quickRow(ctx, presets, busy) {
  const { t, api } = ctx;
  const label = (p) => `${t(`variant.${p.variant}`)} · ${t("fun.amount", { amount: ctx.number(p.stake) })} · ${clockLabel(t, p.clock)}`;
  return h("section", { class: "card quick", "aria-labelledby": "quick-title", "data-testid": "quick" },
    h("h2", { id: "quick-title" }, t("lobby.quick")),
    h("div", { class: "quick-buttons" }, presets.map((preset) =>
      h("button", { type: "button", class: "secondary", "data-testid": "quick-pair",
        dataset: { variant: preset.variant, stake: String(preset.stake) },
        onclick: async (event) => {
          if (busy()) return ctx.toast(t("lobby.busy"), "bad");
          event.currentTarget.disabled = true;
          const button = event.currentTarget;
          try {
            const answer = await api.post("/api/requests/quick", preset);
            if (answer.game) {
              ctx.me.playing = answer.game.id;
              await ctx.refreshMe();
              ctx.navigate(`#/game/${answer.game.id}`);
            } else {
              ctx.toast(t("lobby.quick_waiting", { game: label(preset) }));
            }
          } catch (e) {
            ctx.toast(e.message, "bad");
          } finally {
            button.disabled = false;
          }
        } }, h("strong", {}, t(`variant.${preset.variant}`)),
        h("small", {}, `${t("fun.amount", { amount: ctx.number(preset.stake) })} · ${clockLabel(t, preset.clock)}`)))));
}

// The club's bots, each with what it plays and a button that readies the request
// form for a challenge to it (the player still chooses the stake and options).
function botsCard(ctx, bots, formOf) {
  const { t } = ctx;
  function challenge(bot) {
    const form = formOf();
    const variant = form.querySelector("select[name=variant]");
    if (!bot.variants.includes(variant.value)) {
      variant.value = bot.variants[0];
      variant.dispatchEvent(new Event("change"));
    }
    const opponent = form.querySelector("[data-testid=opponent]");
    opponent.value = bot.username;
    opponent.dispatchEvent(new Event("change"));
    form.scrollIntoView({ behavior: "smooth", block: "center" });
    form.querySelector("input[name=stake]").focus();
  }
  return h("section", { class: "card", "aria-labelledby": "bots-title", "data-testid": "bots" },
    h("h2", { id: "bots-title" }, t("lobby.play_a_bot")),
    h("ul", { class: "bots" }, bots.map((bot) => h("li", { dataset: { bot: bot.username } },
      h("div", {},
        h("a", { class: "who", href: `#/profile/${encodeURIComponent(bot.username)}` }, bot.username),
        h("p", { class: "muted" }, aboutBot(t, bot)),
        h("p", {}, bot.variants.map((v) => h("span", { class: "tag" }, t(`variant.${v}`))))),
      h("button", { type: "button", class: "secondary", "data-testid": "challenge-bot",
        onclick: () => challenge(bot) }, t("lobby.challenge_bot"))))));
}

function aboutBot(t, bot) {
  const key = `bot.about.${bot.username}`;
  const words = t(key);
  return words === key ? bot.about : words;  // a bot of the operator's own roster: its words
}

export function optionTags(words, request) {
  const { t, plural, number } = words;
  const o = request.options || {};
  const tags = [];
  if (o.match_length) tags.push(t("option.match_of", { points: o.match_length }));
  if (o.cube) tags.push(t("option.cube"));
  if (o.beavers) tags.push(t("option.beavers"));
  if (o.jacoby) tags.push(t("option.jacoby"));
  if (o.auto_doubles) tags.push(plural("option.auto_doubles_n", o.auto_doubles, { n: number(o.auto_doubles) }));
  if (request.variant && ["short_nardy", "caucasian_nardy", "long_nardy"].includes(request.variant)) {
    tags.push(t(o.stake_mode === "mars" ? "option.mars" : "option.oin"));
  }
  if (o.last_roll) tags.push(t("option.last_roll"));
  if (o.move_limit) tags.push(t("option.move_limit_n", { n: o.move_limit }));
  if (o.colour === "white" || o.colour === "black") {
    tags.push(t(`option.owner_${o.colour}`, { name: request.owner?.username ?? "" }));
  }
  if (request.invitee) tags.push(t("lobby.challenge_to", { name: request.invitee.username }));
  if (request.rated === false) tags.push(t("lobby.unrated"));
  return tags.map((tag) => h("span", { class: "tag" }, tag));
}

function requestRow(ctx, request, busy) {
  const { t, api } = ctx;
  let button;
  if (!ctx.me) {
    button = h("a", { href: "#/login" }, t("nav.login"));
  } else if (request.owner.id === ctx.me.id) {
    button = h("button", { class: "secondary", type: "button", onclick: async () => {
      try { await api.del(`/api/requests/${request.id}`); } catch (e) { ctx.toast(e.message, "bad"); }
    } }, t("lobby.cancel"));
  } else {
    button = h("button", { type: "button", "data-testid": "accept", disabled: !!busy,
      title: busy ? ctx.t("lobby.busy") : null, onclick: async (event) => {
      event.target.disabled = true;
      try {
        const game = await api.post(`/api/requests/${request.id}/accept`);
        await ctx.refreshMe();
        ctx.navigate(`#/game/${game.id}`);
      } catch (e) {
        ctx.toast(e.message, "bad");
        event.target.disabled = false;
      }
    } }, t("lobby.accept"));
    if (request.invitee && request.invitee.id === ctx.me.id) {  // a challenge to me: or decline it
      button = h("span", { class: "row" }, button,
        h("button", { type: "button", class: "secondary", "data-testid": "decline", onclick: async () => {
          try { await api.del(`/api/requests/${request.id}`); } catch (e) { ctx.toast(e.message, "bad"); }
        } }, t("rematch.decline")));
    }
  }
  return h("tr", { dataset: { request: request.id } },
    h("td", {}, h("a", { class: "who", href: `#/profile/${request.owner.username}` },
      avatarImg(request.owner, 24), request.owner.username),
      request.owner.rating ? h("span", { class: "rating muted", "data-testid": "owner-rating" },
        ` ${ctx.rating(request.owner.rating)}`) : null),
    h("td", { class: "wide" }, t(`variant.${request.variant}`), " ", optionTags(ctx, request)),
    h("td", { class: "num" }, request.stake ? t("fun.amount", { amount: ctx.number(request.stake) }) : t("lobby.free")),
    h("td", {}, clockLabel(t, request.clock)),
    h("td", {}, button));
}

// Seated at this chouette table (its lobby summary) now?
export function seatedAt(ctx, table) {
  return !!ctx.me && !!table && table.players.some((p) => p.id === ctx.me.id && !p.left);
}

// A chouette table's row: its seats taken out of those offered, who sits there, and
// what the viewer may do: take a seat, give it up before the first game, or (the
// owner) start and close it. Starting is done in the table's room, where everyone
// seated must be when a game begins (a seat away at the start is given up).
function tableRow(ctx, request, busy) {
  const { t, api } = ctx;
  const table = request.table;
  const seated = table.players.filter((p) => !p.left);
  const mine = seatedAt(ctx, table);
  const owner = ctx.me && request.owner.id === ctx.me.id;
  const room = `#/game/${table.id}`;
  const post = async (event, what, then) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await api.post(`/api/requests/${request.id}/${what}`);
      await ctx.refreshMe();
      if (then) ctx.navigate(then);
    } catch (e) {
      ctx.toast(e.message, "bad");
    } finally {
      button.disabled = false;
    }
  };
  const buttons = [];
  if (!ctx.me) {
    buttons.push(h("a", { href: "#/login" }, t("nav.login")));
  } else if (mine) {
    buttons.push(h("a", { class: "button", href: room, "data-testid": "open-table" }, t("lobby.open_table")));
    if (owner && table.status === "waiting") {
      buttons.push(h("button", { type: "button", "data-testid": "start-table", disabled: seated.length < 3,
        title: seated.length < 3 ? t("lobby.start_needs") : null,
        onclick: () => ctx.navigate(`${room}?start=1`) }, t("chouette.start")));
    }
    if (owner && table.status === "waiting" && seated.length < table.capacity) {
      buttons.push(h("button", { type: "button", class: "secondary", "data-testid": "add-bot",
        onclick: (event) => post(event, "bot") }, t("chouette.add_bot")));
    }
    if (owner) {
      buttons.push(h("button", { type: "button", class: "secondary", "data-testid": "close-table",
        onclick: (event) => {
          if (confirm(t("chouette.close_confirm"))) post(event, "close");
        } }, t("chouette.close")));
    } else if (table.status === "waiting") {
      buttons.push(h("button", { type: "button", class: "secondary", "data-testid": "leave-table",
        onclick: (event) => post(event, "leave") }, t("chouette.leave")));
    }
  } else {
    const full = seated.length >= table.capacity;
    buttons.push(h("button", { type: "button", "data-testid": "join-table", disabled: full || !!busy,
      title: full ? t("lobby.table_full") : busy ? t("lobby.busy") : null,
      onclick: (event) => post(event, "join", room) }, t("lobby.join")));
  }
  return h("tr", { class: "table-row", dataset: { request: request.id, table: table.id } },
    h("td", {}, h("a", { class: "who", href: `#/profile/${request.owner.username}` },
      avatarImg(request.owner, 24), request.owner.username)),
    h("td", { class: "wide" },
      h("strong", {}, t("lobby.chouette")), " ",
      h("span", { class: "tag seats", "data-testid": "seats" },
        t("lobby.seats_taken", { n: ctx.number(seated.length), m: ctx.number(table.capacity) })),
      table.status === "live" ? h("span", { class: "tag" }, t("lobby.table_playing")) : null,
      request.options?.friends_only ? h("span", { class: "tag", "data-testid": "friends-only-tag" },
        t("lobby.friends_only_tag")) : null,
      request.rated === false ? h("span", { class: "tag" }, t("lobby.unrated")) : null,
      h("span", { class: "seated muted", "data-testid": "seated" },
        seated.map((p) => p.username).join(", "))),
    h("td", { class: "num" }, request.stake ? t("fun.amount", { amount: ctx.number(request.stake) }) : t("lobby.free")),
    h("td", {}, clockLabel(t, request.clock)),
    h("td", {}, h("span", { class: "row table-buttons" }, buttons)));
}

function gameRow(ctx, game) {
  const { t } = ctx;
  const chouette = game.kind === "chouette";
  const names = game.players.map((p) => p.username).join(chouette ? ", " : " – ");
  const score = game.score ? `${game.score.W}–${game.score.B}` : "";
  return h("tr", { dataset: { game: game.id } },
    h("td", { class: "wide" }, names),
    h("td", {}, chouette ? [t("lobby.chouette"), " ", h("span", { class: "tag", "data-testid": "seats" },
      t("lobby.seats_taken", { n: ctx.number(game.players.length), m: ctx.number(game.capacity) }))]
      : t(`variant.${game.variant}`)),
    h("td", { class: "num" }, game.stake ? t("fun.amount", { amount: ctx.number(game.stake) }) : t("lobby.free")),
    h("td", {}, score),
    h("td", { class: "num", "data-label": t("lobby.spectators") }, String(game.spectators)),
    h("td", {}, h("a", { class: "button secondary", href: `#/game/${game.id}` }, t("lobby.watch"))));
}

export function clockLabel(t, clock) {
  return clock === "untimed" ? t("clock.untimed") : clock;
}

function requestForm(ctx, variants, bots, friends) {
  const { t, api } = ctx;
  const opponent = h("select", { name: "opponent", "data-testid": "opponent" });
  const wanted = ctx.params.get("opponent");  // "Challenge" on a profile or the friends page
  const rated = h("input", { type: "checkbox", name: "rated", checked: true });
  const botsMayAccept = h("input", { type: "checkbox", name: "bots", checked: true });
  const botsLabel = h("label", { class: "check" }, botsMayAccept, t("lobby.bots_may_accept"));
  const byName = new Map(variants.map((v) => [v.variant, v]));
  // Chouette (issue 18) is a choice of its own: a backgammon table for 3 to 8 people.
  const variant = h("select", { name: "variant" },
    variants.map((v) => h("option", { value: v.variant }, t(`variant.${v.variant}`))),
    byName.has("backgammon") ? h("option", { value: CHOUETTE }, t("lobby.chouette")) : null);
  const chouette = () => variant.value === CHOUETTE;
  const seats = h("input", { name: "seats", type: "number", min: 3, max: 8, step: 1, value: 4,
    inputmode: "numeric", "data-testid": "seats-input" });
  const friendsOnly = h("input", { name: "friends_only", type: "checkbox", "data-testid": "friends-only" });
  const stake = h("input", { name: "stake", type: "number", min: 0, step: 1, value: 100, required: true,
    inputmode: "numeric" });
  const clock = h("select", { name: "clock" }, CLOCKS.map((c) => h("option", { value: c }, clockLabel(t, c))));
  const optionsBox = h("div", { class: "options" });
  const error = h("p", { class: "error", role: "alert" });
  const fields = {};

  function renderOptions() {
    clear(optionsBox);
    for (const key of Object.keys(fields)) delete fields[key];
    if (chouette()) {  // CH-1, CH-3: the seats; no cube options, each member has his own cube
      optionsBox.append(h("label", {}, t("lobby.seats"), seats),
        h("label", { class: "check" }, friendsOnly, t("lobby.friends_only")),
        h("p", { class: "muted chouette-note" }, t("lobby.chouette_note")));
      return;
    }
    const info = byName.get(variant.value);
    for (const name of info.options) {
      const value = info.defaults[name];
      let input;
      if (typeof value === "boolean") {
        input = h("input", { type: "checkbox", name, checked: value });
        optionsBox.append(h("label", { class: "check" }, input, t(`option.${name}`)));
      } else if (name === "colour") {  // draughts: the owner's colour
        input = h("select", { name, "data-testid": "colour" }, ["random", "white", "black"].map((c) =>
          h("option", { value: c, selected: c === value }, t(`option.colour_${c}`))));
        optionsBox.append(h("label", {}, t("option.colour"), input));
      } else if (name === "stake_mode") {
        input = h("select", { name }, ["oin", "mars"].map((m) => h("option", { value: m, selected: m === value },
          t(`option.${m}`))));
        optionsBox.append(h("label", {}, t("option.stake_mode"), input));
      } else {
        const limits = { auto_doubles: [0, 3], match_length: [0, 25], move_limit: [0, 1000] }[name] || [0, 99];
        input = h("input", { type: "number", name, min: limits[0], max: limits[1], step: 1, value });
        optionsBox.append(h("label", {}, t(`option.${name}`), input));
      }
      fields[name] = input;
    }
  }
  function renderOpponents() {
    // A private challenge to a friend, or to a bot that plays this game; else a public request.
    const chosen = opponent.value || wanted || "";
    clear(opponent);
    opponent.append(h("option", { value: "" }, t("lobby.anyone")));
    const people = friends.map((f) => f.username);
    if (wanted && !people.includes(wanted) && !bots.some((b) => b.username === wanted)) people.unshift(wanted);
    if (people.length) {
      opponent.append(h("optgroup", { label: t("lobby.people") }, people.map((name) =>
        h("option", { value: name, selected: name === chosen }, name))));
    }
    const playing = bots.filter((b) => b.variants.includes(variant.value));
    if (playing.length) {
      opponent.append(h("optgroup", { label: t("lobby.bots") }, playing.map((bot) =>
        h("option", { value: bot.username, selected: bot.username === chosen },
          t("lobby.bot_name", { name: bot.username })))));
    }
    botsLabel.hidden = opponent.value !== "" || chouette();
    opponentLabel.hidden = chouette();  // a table is open to all: friends take a seat
  }
  const submit = h("button", { type: "submit" }, t("lobby.post"));
  const opponentLabel = h("label", {}, t("lobby.opponent"), opponent);
  const ratedLabel = h("label", { class: "check" }, rated, t("lobby.rated"));
  variant.addEventListener("change", renderOptions);
  variant.addEventListener("change", renderOpponents);
  opponent.addEventListener("change", renderOpponents);
  renderOptions();
  renderOpponents();

  return h("form", { class: "stack", "data-testid": "new-request", onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (chouette()) return postTable();
    const body = { variant: variant.value, stake: Number(stake.value), clock: clock.value,
      rated: rated.checked };
    if (opponent.value) body.opponent = opponent.value;
    else body.bots = botsMayAccept.checked;
    for (const [name, input] of Object.entries(fields)) {
      body[name] = input.type === "checkbox" ? input.checked
        : input.tagName === "SELECT" ? input.value : Number(input.value);
    }
    if (body.match_length > 0) {  // BG-18: a match has no beavers, Jacoby or automatic doubles
      delete body.beavers; delete body.jacoby; delete body.auto_doubles;
    }
    if (!Number.isInteger(body.stake)) {
      error.textContent = t("lobby.stake_whole");
      return;
    }
    submit.disabled = true;
    try {
      await api.post("/api/requests", body);
      ctx.toast(body.opponent ? t("lobby.challenged", { name: body.opponent }) : t("lobby.posted"));
    } catch (e) {
      error.textContent = e.message;
    } finally {
      submit.disabled = false;
    }
  } },
    h("div", { class: "row" }, h("label", {}, t("lobby.game"), variant),
      h("label", {}, t("lobby.stake_fun"), stake), h("label", {}, t("lobby.clock"), clock),
      opponentLabel),
    optionsBox, ratedLabel, botsLabel, error, submit);

  // A chouette table: posted, it is open at once with its owner in the first seat, so
  // he goes to its room to wait there for the others (CH-10: 3 × S held from now).
  async function postTable() {
    const body = { variant: "backgammon", seats: Number(seats.value), stake: Number(stake.value),
      clock: clock.value, friends_only: friendsOnly.checked, rated: rated.checked };
    if (!Number.isInteger(body.stake)) {
      error.textContent = t("lobby.stake_whole");
      return;
    }
    if (!Number.isInteger(body.seats) || body.seats < 3 || body.seats > 8) {
      error.textContent = t("lobby.seats_range");
      return;
    }
    submit.disabled = true;
    try {
      const posted = await api.post("/api/requests", body);
      await ctx.refreshMe();
      ctx.navigate(`#/game/${posted.game}`);
    } catch (e) {
      error.textContent = e.message;
    } finally {
      submit.disabled = false;
    }
  }
}
