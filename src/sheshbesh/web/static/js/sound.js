// The room's sounds (issue 17): dice, a checker put down, a hit, a double offered, your
// turn, the game's end. Synthesised with Web Audio (no files to fetch, nothing to license),
// each a few tenths of a second. Browsers let a page sound only after the person has
// touched it, so nothing plays before the first click, tap or key on the page; the
// player's mute setting (preferences) silences them all.
//
// `played` lists what was asked for, and whether it was heard ({name, audible}), so the
// page (and a test) can tell the rules above are kept.

let context = null;
let muted = false;
export const played = [];

function unlock() {
  if (context) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    context = new Context();
    if (context.state === "suspended") context.resume();
  } catch {
    context = null;
  }
}

for (const type of ["pointerdown", "keydown", "touchend"]) {
  document.addEventListener(type, unlock, { capture: true, passive: true });
}

export function setMuted(value) {
  muted = Boolean(value);
}

export function isMuted() {
  return muted;
}

/** Play the sound `name` (see SOUNDS) if the page may and the player wants it. */
export function play(name) {
  const make = SOUNDS[name];
  if (!make) return false;
  const audible = !muted && context !== null;
  played.push({ name, audible });
  if (played.length > 50) played.shift();
  if (audible) {
    try {
      make(context, context.currentTime + 0.01);
    } catch {
      return false;
    }
  }
  return audible;
}

// --- the sounds -------------------------------------------------------------------------

function tone(ctx, at, { freq, to = freq, length, gain = 0.2, type = "sine" }) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A short burst of filtered noise: wood and bone knocking. */
function knock(ctx, at, { length = 0.05, gain = 0.35, freq = 1800, q = 1.2 }) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(at);
}

const SOUNDS = {
  dice(ctx, at) {
    [0, 0.07, 0.13, 0.22, 0.27].forEach((dt, i) => knock(ctx, at + dt, { freq: 2600 - i * 180, gain: 0.3 - i * 0.03 }));
  },
  move(ctx, at) {
    knock(ctx, at, { freq: 900, gain: 0.45, length: 0.06 });
    tone(ctx, at, { freq: 190, to: 120, length: 0.09, gain: 0.15 });
  },
  hit(ctx, at) {
    knock(ctx, at, { freq: 1300, gain: 0.5, length: 0.05 });
    knock(ctx, at + 0.09, { freq: 700, gain: 0.45, length: 0.07 });
    tone(ctx, at, { freq: 260, to: 110, length: 0.16, gain: 0.18, type: "triangle" });
  },
  double(ctx, at) {
    tone(ctx, at, { freq: 660, length: 0.18, gain: 0.14, type: "triangle" });
    tone(ctx, at + 0.16, { freq: 990, length: 0.28, gain: 0.14, type: "triangle" });
  },
  turn(ctx, at) {
    tone(ctx, at, { freq: 880, length: 0.35, gain: 0.09 });
  },
  end(ctx, at) {
    [523, 659, 784].forEach((freq, i) => tone(ctx, at + i * 0.13, { freq, length: 0.4, gain: 0.1, type: "triangle" }));
  },
};

export const NAMES = Object.keys(SOUNDS);
