// The keys that slide a tile each way: the arrows and WASD until the
// player chooses four keys of their own (remembered on this device), then
// those four alone.
const KEYS = {
  ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R',
  w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R',
};
const KEPT_KEYS = 'tessera-slide-keys';
const ORDER = ['U', 'D', 'L', 'R'];
export const WORDS = { U: 'up', D: 'down', L: 'left', R: 'right' };
let chosen = null; // { U: key, D: key, L: key, R: key } once chosen
let picking = null; // the keys chosen so far while the player picks

// A letter key is the same key with or without Shift.
const sameKey = (a, b) => (a.length === 1 ? a.toLowerCase() === b.toLowerCase() : a === b);

// The move a key makes, or undefined.
export function move(key) {
  if (!chosen) return KEYS[key];
  return ORDER.find((m) => sameKey(chosen[m], key));
}

const keyName = (key) => ({ ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', ' ': 'Space' }[key]
  ?? (key.length === 1 ? key.toUpperCase() : key));

// Says which keys move, on the page and in the keys dialog.
function show() {
  const text = chosen ? ORDER.map((m) => keyName(chosen[m])).join(' ') : '← ↑ → ↓, W A S D';
  const dt = document.getElementById('keys-slide-moves');
  if (dt) dt.textContent = chosen ? `${text} (up, down, left, right)` : text;
}

// Whether the player is choosing keys: every key goes to `take` then.
export const choosing = () => picking !== null;

// Asks for the four keys in turn (up, down, left, right); Escape keeps
// the keys as they were. `say(text, kind)` tells the player.
export function choose(say) {
  picking = {};
  say(`Press the key that slides a tile up (Escape keeps the keys as they are)`);
}

// Takes a key pressed while choosing.
export function take(e, say) {
  e.preventDefault();
  if (e.key === 'Escape') {
    picking = null;
    say('Keys kept as they were.');
    return;
  }
  if (['Shift', 'Control', 'Alt', 'Meta', 'Tab'].includes(e.key)) return;
  if (Object.values(picking).some((k) => sameKey(k, e.key))) {
    say(`${keyName(e.key)} is taken already: press another key`, 'error');
    return;
  }
  const next = ORDER.find((m) => !(m in picking));
  picking[next] = e.key;
  const after = ORDER.find((m) => !(m in picking));
  if (after) {
    say(`Press the key that slides a tile ${WORDS[after]}`);
    return;
  }
  chosen = picking;
  picking = null;
  try { localStorage.setItem(KEPT_KEYS, JSON.stringify(chosen)); } catch { /* this visit only */ }
  show();
  say(`Keys: ${ORDER.map((m) => `${WORDS[m]} ${keyName(chosen[m])}`).join(', ')}`);
}

// Takes the keys chosen on this device before, if any (and well-formed).
export function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_KEYS));
    const keys = ORDER.map((m) => kept?.[m]);
    if (keys.every((k) => typeof k === 'string' && k.length > 0) && new Set(keys).size === 4) chosen = kept;
  } catch { /* none */ }
  show();
}
