// A Shisen-Sho game's verdicts turn by turn, as the replay page and the
// game's own analysis show them: a strip of one cell per turn, and the
// strip in words for a screen reader.
import { el } from './api.js';

const word = (v) => (v === true ? 'winnable' : v === false ? 'lost' : 'unknown');
const css = (v) => (v === true ? 'win' : v === false ? 'lost' : 'unknown');

// The strip in words: "turns 1–7 winnable, turns 8–9 lost"; `none` when
// there is no turn.
function runs(verdicts, none) {
  const out = [];
  verdicts.forEach((v, i) => {
    const last = out[out.length - 1];
    if (last && last.word === word(v)) last.to = i + 1; else out.push({ word: word(v), from: i + 1, to: i + 1 });
  });
  return out.map((run) => `${run.from === run.to ? `turn ${run.from}` : `turns ${run.from}–${run.to}`} ${run.word}`).join(', ') || none;
}

// Fills `strip` with one cell per turn, the verdict on the board the turn
// left (true winnable, false lost, null unknown), and labels it in words
// (`none` for no turn).
export function showVerdicts(strip, verdicts, none) {
  const cells = verdicts.map((v, i) => el('span', { class: `loss-cell ${css(v)}`, title: `turn ${i + 1}: ${word(v)}` }));
  strip.replaceChildren(...cells);
  strip.setAttribute('aria-label', `${cells.length} turns: ${runs(verdicts, none)}`);
}
