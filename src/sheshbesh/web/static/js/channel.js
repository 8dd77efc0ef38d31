// Sockets that survive a lost connection: they reconnect with backoff and, for a
// game, resume from the last sequence number seen (?v=N) so nothing is missed or
// repeated (docs/protocol.md). Frames arrive in order through onFrame.
//
// The server limits what one socket may send (docs/protocol.md, "Limits"): after a
// `rate_limited` error this socket sends nothing until the `retry` it names has
// passed, and a socket closed for flooding or for too many sockets (4429) waits
// LIMITED_WAIT before it tries again. The backoff starts over only once a socket
// has delivered a frame that is not an error, and every wait is jittered, so a
// refused or restarted server never sees a storm of reconnects.
//
// A socket that goes silent is replaced: every PING_EVERY it pings, and when nothing
// at all (the pong, or any frame queued before it) comes back within SILENT_WAIT, it
// drops that socket and opens another, which resumes from ?v=N. A connection that a
// network change left half-open, or a server that stopped writing to it, would
// otherwise hold the page on an old position with no sign that anything is wrong.
//
// A socket closed with 4401 belongs to a session that ended (a logout, a new
// password, a closed account; or no session at all, for /ws/me): it calls
// onEnded, and the page signs out. It reopens (as a guest's) only if the page
// keeps it open; /ws/me, which a guest cannot hold, the page closes.

const CLOSE_LIMITED = 4429;
const CLOSE_ENDED = 4401;
const LIMITED_WAIT = 30000;
const PING_EVERY = 10000;
const SILENT_WAIT = 15000;
const jitter = (ms) => ms * (0.75 + Math.random() / 2);

export class Channel {
  constructor(path, { onFrame, onStatus, onEnded }) {
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus || (() => {});
    this.onEnded = onEnded || (() => {});
    this.v = null;
    this.tries = 0;
    this.quietUntil = 0;
    this.closed = false;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const since = this.v === null ? "" : `?v=${this.v}`;
    return `${scheme}://${location.host}${this.path}${since}`;
  }

  open() {
    this.ws = new WebSocket(this.url());
    this.ws.onopen = () => { this.onStatus("open"); this.ping(); };
    this.ws.onmessage = (message) => {
      clearTimeout(this.silence);
      this.silence = null;
      let frame;
      try { frame = JSON.parse(message.data); } catch { return; }
      if (frame.t === "error" && frame.d && frame.d.error === "rate_limited") {
        this.quietUntil = Date.now() + 1000 * Math.max(1, Number(frame.d.retry) || 0);
      } else if (frame.t !== "error") {
        this.tries = 0;  // a healthy socket: the next loss starts the backoff over
      }
      if (frame.t === "event" && this.v !== null && frame.v <= this.v) return;  // seen already
      if (typeof frame.v === "number" && (frame.t === "event" || frame.t === "snapshot")) {
        this.v = frame.v;
      }
      this.onFrame(frame);
    };
    this.ws.onclose = (event) => this.lost(event.code);
  }

  lost(code) {
    clearInterval(this.pinger);
    clearTimeout(this.silence);
    this.silence = null;
    if (this.closed) return;
    if (code === CLOSE_ENDED) {  // not a lost connection: the page signs out
      this.onEnded({ code });
      if (this.closed) return;
    } else {
      this.onStatus("lost");
    }
    const backoff = Math.min(10000, 500 * 2 ** this.tries++);
    const wait = code === CLOSE_LIMITED ? Math.max(LIMITED_WAIT, backoff) : backoff;
    this.retry = setTimeout(() => this.open(), jitter(wait));
  }

  ping() {
    clearInterval(this.pinger);
    this.pinger = setInterval(() => {
      if (!this.send({ t: "ping" }) || this.silence) return;
      this.silence = setTimeout(() => this.replace(), SILENT_WAIT);
    }, PING_EVERY);
  }

  // Nothing came back since a ping: this socket is dead to us, whatever its state.
  replace() {
    const silent = this.ws;
    silent.onclose = silent.onmessage = null;
    silent.close();
    this.lost(null);
  }

  send(frame) {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    if (Date.now() < this.quietUntil) return false;  // told to slow down: drop, never queue
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  act(action) {
    return this.send({ t: "action", v: this.v, d: action });
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearTimeout(this.silence);
    clearInterval(this.pinger);
    this.ws.close();
  }
}
