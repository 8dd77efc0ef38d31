// Sockets that survive a lost connection: they reconnect with backoff and, for a
// game, resume from the last sequence number seen (?v=N) so nothing is missed or
// repeated (docs/protocol.md). Frames arrive in order through onFrame.

export class Channel {
  constructor(path, { onFrame, onStatus }) {
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus || (() => {});
    this.v = null;
    this.tries = 0;
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
    this.ws.onopen = () => { this.tries = 0; this.onStatus("open"); this.ping(); };
    this.ws.onmessage = (message) => {
      let frame;
      try { frame = JSON.parse(message.data); } catch { return; }
      if (frame.t === "event" && this.v !== null && frame.v <= this.v) return;  // seen already
      if (typeof frame.v === "number" && (frame.t === "event" || frame.t === "snapshot")) {
        this.v = frame.v;
      }
      this.onFrame(frame);
    };
    this.ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.closed) return;
      this.onStatus("lost");
      const wait = Math.min(10000, 500 * 2 ** this.tries++);
      this.retry = setTimeout(() => this.open(), wait);
    };
  }

  ping() {
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ t: "ping" }), 25000);
  }

  send(frame) {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  act(action) {
    return this.send({ t: "action", v: this.v, d: action });
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    this.ws.close();
  }
}
