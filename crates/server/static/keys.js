// The keys that slide a tile each way: the arrows and WASD until the
// player chooses four keys of their own (remembered on this device), then
// those four alone; and the key that deals a new scramble, Space until the
// player chooses another with them.
const KEYS = {
  ArrowUp: 'U', ArrowDown: 'D', ArrowLeft: 'L', ArrowRight: 'R',
  w: 'U', s: 'D', a: 'L', d: 'R', W: 'U', S: 'D', A: 'L', D: 'R',
};
const KEPT_KEYS = 'tessera-slide-keys';
const ORDER = ['U', 'D', 'L', 'R'];
export const WORDS = { U: 'up', D: 'down', L: 'left', R: 'right' };
const STEPS = [...ORDER, 'N'];
const ASKS = { U: 'slides a tile up', D: 'slides a tile down', L: 'slides a tile left', R: 'slides a tile right', N: 'deals a new scramble' };
let chosen = null; // { U: key, D: key, L: key, R: key } once chosen
let scramble = ' '; // the new-scramble key
let picking = null; // the keys chosen so far while the player picks

// A letter key is the same key with or without Shift.
const sameKey = (a, b) => (a.length === 1 ? a.toLowerCase() === b.toLowerCase() : a === b);

// The move a key makes, or undefined.
export function move(key) {
  if (!chosen) return KEYS[key];
  return ORDER.find((m) => sameKey(chosen[m], key));
}

// Whether a key deals a new scramble.
export const scrambles = (key) => sameKey(scramble, key);

const keyName = (key) => ({ ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', ' ': 'Space' }[key]
  ?? (key.length === 1 ? key.toUpperCase() : key));

// Says which keys move, on the page and in the keys dialog.
function show() {
  const text = chosen ? ORDER.map((m) => keyName(chosen[m])).join(' ') : '← ↑ → ↓, W A S D';
  const dt = document.getElementById('keys-slide-moves');
  if (dt) dt.textContent = chosen ? `${text} (up, down, left, right)` : text;
  const again = document.getElementById('keys-slide-new');
  if (again) again.textContent = keyName(scramble);
}

// Whether the player is choosing keys: every key goes to `take` then.
export const choosing = () => picking !== null;

// Asks for the four keys in turn (up, down, left, right); Escape keeps
// the keys as they were. `say(text, kind)` tells the player.
export function choose(say) {
  picking = {};
  say(`Press the key that ${ASKS.U} (Escape keeps the keys as they are)`);
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
  const next = STEPS.find((m) => !(m in picking));
  picking[next] = e.key;
  const after = STEPS.find((m) => !(m in picking));
  if (after) {
    say(`Press the key that ${ASKS[after]}`);
    return;
  }
  ({ N: scramble, ...chosen } = picking);
  picking = null;
  try { localStorage.setItem(KEPT_KEYS, JSON.stringify({ ...chosen, N: scramble })); } catch { /* this visit only */ }
  show();
  say(`Keys: ${ORDER.map((m) => `${WORDS[m]} ${keyName(chosen[m])}`).join(', ')}, new scramble ${keyName(scramble)}`);
}

// Takes the keys chosen on this device before, if any (and well-formed).
export function load() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_KEYS));
    const keys = ORDER.map((m) => kept?.[m]);
    // Keys kept before the new-scramble key was one of them keep Space.
    const again = typeof kept?.N === 'string' && kept.N.length > 0 ? kept.N : ' ';
    if (keys.every((k) => typeof k === 'string' && k.length > 0) && new Set([...keys, again]).size === 5) {
      chosen = { U: kept.U, D: kept.D, L: kept.L, R: kept.R };
      scramble = again;
    }
  } catch { /* none */ }
  show();
}
