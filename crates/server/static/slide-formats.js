// The sliding puzzle's Size and Format menus, and the formats as the page
// names and shows them: marathons and relays on one clock, blindfold
// solves with their phases.
import { clock, el } from './api.js';

const $ = (id) => document.getElementById(id);

// The sides the page deals (play::limits::WEB_SLIDE_SIDES), and the last
// size of a relay (play::limits::RELAY_LAST_SIDE).
export const SMALLEST = 2;
export const LARGEST = 32;
export const RELAY_LAST = 10;
// Long boards the Size menu offers besides the squares and near-squares.
const LONG = ['10x3', '20x2', '16x4', '32x8', '20x10'];

// A size as the page takes it, `WxH` with sides SMALLEST to LARGEST, or null.
function sizeOf(text) {
  const m = /^(\d+)x(\d+)$/.exec(text.trim());
  const fits = (n) => n >= SMALLEST && n <= LARGEST;
  return m && fits(Number(m[1])) && fits(Number(m[2])) ? `${Number(m[1])}x${Number(m[2])}` : null;
}

// Chooses `size` in the Size menu, adding it when the menu lacks it (a
// link's or a custom size); false if it is no size the page deals.
export function chooseSize(text) {
  const size = sizeOf(text);
  if (!size) return false;
  const menu = $('slide-size');
  if (![...menu.options].some((o) => o.value === size)) {
    const [w, h] = size.split('x');
    menu.insertBefore(el('option', { value: size, text: `${w}×${h}` }), menu.querySelector('option[value="custom"]'));
  }
  menu.value = size;
  $('slide-custom').hidden = true;
  return true;
}

// The Size menu: the squares and near-squares to 10×10, larger squares,
// long boards, and a custom size; 4×4 chosen.
export function sizeMenu() {
  const sizes = $('slide-size');
  sizes.append(el('option', { value: '2x2', text: '2×2' }));
  for (let h = 3; h <= 10; h++) {
    for (let w = 3; w <= 10; w++) {
      if (Math.abs(w - h) > 2) continue;
      sizes.append(el('option', { value: `${w}x${h}`, text: `${w}×${h}` }));
    }
  }
  for (const n of [12, 16, 20, 24, 32]) sizes.append(el('option', { value: `${n}x${n}`, text: `${n}×${n}` }));
  for (const size of LONG) sizes.append(el('option', { value: size, text: size.replace('x', '×') }));
  sizes.append(el('option', { value: 'custom', text: 'custom…' }));
  sizes.value = '4x4';
}

// The Format menu: relays go up to the largest square size the page deals;
// slidysim's relays go down from the chosen size (play::format::Descent).
export function formatMenu(largest) {
  const menu = $('slide-format');
  const formats = ['single', ...MARATHONS.map((n) => `marathon-${n}`)];
  for (let n = 4; n <= largest; n++) formats.push(`relay-${n}`);
  formats.push(...DESCENTS, 'bld');
  for (const f of formats) menu.append(el('option', { value: f, text: formatName(f) }));
}

// The marathon lengths the menu offers (any of 2 to 1000 is dealt), and
// slidysim's relays down from the chosen size, with their names in words.
export const MARATHONS = [5, 10, 12, 42, 50, 100, 1000];
const DESCENTS = ['2-n-relay', 'height-relay', 'width-relay', 'everything-relay'];
// The names stay short: the menu is as wide as its longest name, and on a
// phone a longer one scrolled the page sideways (docs/records.md says
// which sizes each relay deals).
const DESCENT_NAMES = {
  '2-n-relay': '2-N relay',
  'height-relay': 'height relay',
  'width-relay': 'width relay',
  'everything-relay': 'everything relay',
};

// A format's name in words: "marathon of 10", "relay to 5×5", "blindfold".
export function formatName(format) {
  if (DESCENT_NAMES[format]) return DESCENT_NAMES[format];
  const [kind, n] = format.split('-');
  if (kind === 'marathon') return `marathon of ${n}`;
  if (kind === 'relay') return `relay to ${n}×${n}`;
  return format === 'bld' ? 'blindfold' : format;
}

// A blindfold solve's two phases: looking until the first move, then
// solving blind.
export function phases(game) {
  if (!game.blind || game.times.length === 0) return '';
  const look = game.times[0];
  const end = game.times[game.times.length - 1];
  return ` (memorised in ${clock(look)}, solved blind in ${clock(end - look)})`;
}

// Each puzzle's time and when it was solved on the format's clock, which
// starts at the first move.
export function showSplits(game) {
  if (game.puzzles.length <= 1) return;
  const list = el('ol', { class: 'splits', 'aria-label': 'splits' });
  const start = [...game.done, played(game)][0].times[0] ?? 0;
  let shown = start;
  [...game.done, played(game)].forEach((p, i) => {
    const split = p.times[p.times.length - 1] ?? shown;
    list.append(el('li', { text: `${game.puzzles[i].size}: ${clock(split - shown)} (at ${clock(split - start)})` }));
    shown = split;
  });
  $('slide-status').append(list);
}


// The puzzle in play as the server takes it.
export function played(game) {
  return { moves: game.moves.join(''), times: game.times, inputs: game.inputs.join('') };
}
