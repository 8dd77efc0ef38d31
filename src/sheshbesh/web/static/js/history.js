// The game's history in the room (issue 17): every line of the move list is a position one
// can go back to, during the game (read only: the board shows the past, the game goes on
// underneath) and after it. A position is the game folded to that line's last event, as
// the server has it (GET /api/games/{id}/position?seq=N), so it is drawn exactly as the
// live board was; positions never change once played, so each is fetched once.

export class History {
  constructor({ api, id, onChange }) {
    this.api = api;
    this.id = id;
    this.onChange = onChange;
    this.stops = [];      // the seq of every line's position, in order
    this.at = null;       // the index in `stops` shown (null: the live game)
    this.states = new Map();
    this.asked = 0;
  }

  get active() {
    return this.at !== null;
  }

  /** The lines of the move list changed: these are the positions one may visit. */
  setStops(lines) {
    const seq = this.active ? this.stops[this.at] : null;
    this.stops = lines.map((line) => line.seqs[line.seqs.length - 1]);
    if (seq !== null) {
      const at = this.stops.indexOf(seq);
      this.at = at >= 0 ? at : null;
    }
  }

  /** The seq being shown (null: live). */
  get seq() {
    return this.active ? this.stops[this.at] : null;
  }

  /** The state to draw for the shown position (null while it loads, or live). */
  state() {
    return this.active ? this.states.get(this.seq) || null : null;
  }

  /** Show the position after event `seq` (a line of the move list). */
  async show(seq) {
    const at = this.stops.indexOf(seq);
    if (at < 0) return;
    await this.go(at);
  }

  /** Go to the index `at` of the stops; past the last one is the live game again. */
  async go(at) {
    if (!this.stops.length) return;
    if (at >= this.stops.length) {
      this.exit();
      return;
    }
    this.at = Math.max(0, at);
    const seq = this.stops[this.at];
    const asked = ++this.asked;
    this.onChange();
    if (this.states.has(seq)) return;
    try {
      const found = await this.api.get(`/api/games/${this.id}/position?seq=${seq}`);
      this.states.set(seq, found.state);
    } catch (error) {
      console.warn(error);
      if (asked === this.asked) this.at = null;  // unreachable (a hidden offer): back to live
    }
    if (asked === this.asked) this.onChange();
  }

  step(delta) {
    if (!this.stops.length) return Promise.resolve();
    // Live is the last line's position: one back is the line before it.
    if (!this.active) return delta < 0 ? this.go(this.stops.length - 1 + delta) : Promise.resolve();
    return this.go(this.at + delta);
  }

  exit() {
    this.at = null;
    this.asked += 1;
    this.onChange();
  }
}
