// Short sounds made in the browser (#15): your turn, the last seconds of a timer, a
// completed sequence, a Block, a win. No sound files: a few notes from an oscillator.
// The reader can mute them (kept in localStorage); a browser plays nothing before the
// page has had a click or a key, and then neither do we.

const KEY = "sequence-stacks:muted";

// Each sound: notes of [frequency in Hz, length in seconds], played one after another.
export const TUNES = {
  turn: [[660, 0.08], [880, 0.12]],
  warn: [[440, 0.09], [0, 0.05], [440, 0.09]],
  complete: [[523, 0.08], [659, 0.08], [784, 0.14]],
  block: [[330, 0.1], [220, 0.2]],
  win: [[523, 0.1], [659, 0.1], [784, 0.1], [1047, 0.3]],
};

let context = null;

/** True when the reader turned sounds off. */
export function muted() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

/** Turn sounds off (true) or on (false), remembered for next time. */
export function setMuted(on) {
  try {
    localStorage.setItem(KEY, on ? "1" : "0");
  } catch {
    // Storage may be off: the choice lasts for this page only.
  }
}

/** Play one of the TUNES unless muted; silence where there is no audio. */
export function play(name) {
  const notes = TUNES[name];
  if (!notes || muted() || typeof AudioContext === "undefined") return false;
  try {
    context ??= new AudioContext();
    if (context.state === "suspended") context.resume();
    let at = context.currentTime + 0.01;
    for (const [frequency, length] of notes) {
      if (frequency > 0) {
        const tone = context.createOscillator();
        const volume = context.createGain();
        tone.type = "triangle";
        tone.frequency.value = frequency;
        volume.gain.setValueAtTime(0.0001, at);
        volume.gain.exponentialRampToValueAtTime(0.12, at + 0.01);
        volume.gain.exponentialRampToValueAtTime(0.0001, at + length);
        tone.connect(volume).connect(context.destination);
        tone.start(at);
        tone.stop(at + length + 0.02);
      }
      at += length;
    }
    return true;
  } catch {
    return false;
  }
}
