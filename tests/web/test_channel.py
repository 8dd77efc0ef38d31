"""The client's ``Channel`` under the server's limits (issue 16): no retry storm.

``static/js/channel.js`` runs under Node with a fake ``WebSocket`` and a fake
clock: after a ``rate_limited`` error it sends nothing until the ``retry`` has
passed; a socket closed with 4429 (flooding, too many sockets) waits at least
22.5 s (30 s, jittered) before it tries again, every time; a socket that is
accepted and closed at once never resets its backoff; a healthy frame does. A socket
closed with 4401 (its session ended) tells the page once and reopens only if the page
keeps it (as a guest's), never in a loop of its own. A socket whose pings meet silence
is replaced by one new socket that resumes from ``?v=``.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from sheshbesh import web

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

HARNESS = r"""
let now = 0;
const timers = [];
globalThis.setTimeout = (fn, ms) => timers.push({ fn, at: now + ms, live: true });
globalThis.clearTimeout = (id) => { if (timers[id - 1]) timers[id - 1].live = false; };
const intervals = [];
globalThis.setInterval = (fn, ms) => intervals.push({ fn, ms, live: true });
globalThis.clearInterval = (id) => { if (intervals[id - 1]) intervals[id - 1].live = false; };
const fire = () => {  // the timers due by now, once each, in time order
  for (const timer of timers.filter((t) => t.live && t.at <= now).sort((a, b) => a.at - b.at)) {
    timer.live = false;
    timer.fn();
  }
};
Date.now = () => now;
globalThis.location = { protocol: "http:", host: "club" };
const sockets = [];
globalThis.WebSocket = class {
  static OPEN = 1;
  constructor(url) { this.url = url; this.readyState = 1; this.sent = []; sockets.push(this); }
  send(text) { this.sent.push(text); }
  close() { this.shut = true; }
};
const { Channel } = await import(process.argv[1]);
const frame = (t, d) => ({ data: JSON.stringify({ t, d }) });
const out = {};

// A rate_limited error: quiet until the retry has passed.
let channel = new Channel("/ws/game/g", { onFrame() {} });
let ws = sockets.at(-1);
ws.onopen();
ws.onmessage(frame("error", { error: "rate_limited", message: "slow down", retry: 2 }));
out.quiet = channel.send({ t: "ping" });
now += 2100;
out.again = channel.send({ t: "ping" });

// Refused again and again with 4429: every wait is long.
function losses(code, first, count) {
  const waits = [];
  for (let i = 0; i < count; i++) {
    const socket = sockets.at(-1);
    socket.onopen();
    socket.onmessage(frame(...first));
    socket.onclose({ code });
    const timer = timers.at(-1);
    waits.push(timer.at - now);
    now = timer.at;
    timer.fn();
  }
  return waits;
}
channel = new Channel("/ws/lobby", { onFrame() {} });
out.limited = losses(4429, ["error", { error: "too_many_sockets", message: "" }], 6);
channel = new Channel("/ws/lobby", { onFrame() {} });
out.refused = losses(1006, ["error", { error: "not_found", message: "" }], 6);
channel = new Channel("/ws/lobby", { onFrame() {} });
out.healthy = losses(1006, ["lobby", {}], 6);

// A session that ended (4401): the page hears it once; a channel it closes stays shut.
function ended(path, keep) {
  let told = 0;
  const opened = sockets.length;
  const waiting = timers.length;
  const onEnded = () => { told += 1; if (!keep) chan.close(); };
  const chan = new Channel(path, { onFrame() {}, onEnded });
  const socket = sockets.at(-1);
  socket.onopen();
  socket.onmessage(frame("hello", {}));
  socket.onclose({ code: 4401 });
  const retries = timers.length - waiting;
  timers.slice(waiting).forEach((timer) => timer.fn());
  return { told, retries, opened: sockets.length - opened };
}
// Pings answered (by any frame) keep the socket; a ping met with silence replaces it.
function watched(answer) {
  for (const timer of [...timers, ...intervals]) timer.live = false;  // earlier cases' channels
  const chan = new Channel("/ws/game/w", { onFrame() {} });
  const socket = sockets.at(-1);
  socket.onopen();
  socket.onmessage({ data: JSON.stringify({ t: "event", v: 7, d: {} }) });
  const ticking = intervals.filter((i) => i.live).at(-1);
  const opened = sockets.length;
  for (let i = 0; i < 6; i++) {
    now += ticking.ms;
    fire();
    if (!ticking.live) continue;
    ticking.fn();
    if (answer) socket.onmessage(frame(i % 2 ? "pong" : "presence", {}));
  }
  now += 60000;  // long enough for any reconnect's wait
  fire();
  const result = { period: ticking.ms, opened: sockets.length - opened, shut: !!socket.shut,
    pings: socket.sent.filter((text) => JSON.parse(text).t === "ping").length,
    url: sockets.at(-1).url, deaf: socket.onmessage === null };
  chan.close();
  return result;
}
out.answered = watched(true);
out.silent = watched(false);
out.endedClosed = ended("/ws/me", false);
out.endedKept = ended("/ws/lobby", true);
console.log(JSON.stringify(out));
"""


def run_harness() -> dict[str, object]:
    module = (web.STATIC / "js" / "channel.js").as_uri()
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", HARNESS, module],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout))


def test_the_client_backs_off_from_the_servers_limits() -> None:
    out = run_harness()
    assert out["quiet"] is False and out["again"] is True
    limited = out["limited"]
    assert isinstance(limited, list) and min(limited) >= 22_500, limited
    refused = out["refused"]
    assert isinstance(refused, list)
    assert refused[-1] >= 0.75 * 10_000 > 1.25 * refused[0], refused  # it grows to the cap
    healthy = out["healthy"]
    assert isinstance(healthy, list) and max(healthy) <= 625, healthy  # reset by a good frame


def test_a_socket_that_answers_its_pings_is_kept_and_a_silent_one_is_replaced() -> None:
    """Any frame answers a ping; a socket that says nothing for 15 s after a ping is shut,
    stops being read, and one new socket resumes from the last ``v`` (``?v=7``)."""
    out = run_harness()
    answered = out["answered"]
    assert answered == {"period": 10_000, "opened": 0, "shut": False, "pings": 6,
                        "url": "ws://club/ws/game/w", "deaf": False}  # fmt: skip
    silent = out["silent"]
    assert isinstance(silent, dict)
    assert silent["opened"] == 1 and silent["shut"] and silent["deaf"], silent
    assert silent["url"] == "ws://club/ws/game/w?v=7", silent
    assert silent["pings"] == 2, silent  # the second ping met silence too: one replacement


def test_a_socket_whose_session_ended_tells_the_page_and_does_not_loop() -> None:
    out = run_harness()
    assert out["endedClosed"] == {"told": 1, "retries": 0, "opened": 1}
    assert out["endedKept"] == {"told": 1, "retries": 1, "opened": 2}  # reopened, as a guest
