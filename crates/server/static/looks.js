// How the sliding puzzle's tiles look: plain numbers, a colour scheme, or a
// picture. The colours come from the server (POST /api/slide/colours, the
// same code as `tessera slide render --scheme` and the terminal game); the
// built-in pictures are drawn by the server too (/static/picture-NAME.svg).
// A player's own photo is cropped here, on a canvas, and never leaves the
// browser.
import { post, el } from './api.js';
import { PICTURES } from './pictures.js';

// `grids` is the board's default grid layers (the server picks them by
// size); `grids:20x10,10x10,...` a player's own.
export const SCHEMES = ['fringe', 'rows', 'columns', 'gradient', 'grids'];

// The options of the look menu: value and label.
export function options() {
  return [
    ['numbers', 'numbers'],
    ...SCHEMES.map((s) => [`scheme:${s}`, `colours: ${s}`]),
    ['layers', 'colours: grids, your layers…'],
    ...PICTURES.map((p) => [`picture:${p.name}`, `picture: ${p.title}`]),
    ['photo', 'your photo…'],
  ];
}

// The menu entry of a player's own grid layers, e.g. `scheme:grids:8x4,4x4`.
export const ownLayers = (key) => [key, `colours: ${key.slice(7).replace(':', ' ')}`];

// Looks are kept per board size: big boards are played with grids, small
// ones with fringes. A photo is not kept (it never leaves the page).
const KEPT_LOOKS = 'tessera-slide-looks';

function keptLooks() {
  try { return JSON.parse(localStorage.getItem(KEPT_LOOKS)) ?? {}; } catch { return {}; }
}

// The look last chosen on a `WxH` board, if any.
export const keptLook = (size) => keptLooks()[size] ?? null;

export function keepLook(size, key) {
  if (key === 'photo' || key === 'layers') return;
  const kept = keptLooks();
  kept[size] = key;
  try { localStorage.setItem(KEPT_LOOKS, JSON.stringify(kept)); } catch { /* this visit only */ }
}

const colourCache = new Map();

// The scheme's colours for a goal: { fills, texts } indexed by tile.
export async function colours(goalText, scheme) {
  const key = `${scheme} ${goalText}`;
  if (!colourCache.has(key)) {
    colourCache.set(key, post('/api/slide/colours', { goal: goalText, scheme }).catch((e) => {
      colourCache.delete(key);
      throw e;
    }));
  }
  return colourCache.get(key);
}

function loadImage(src) {
  return new Promise((ok, fail) => {
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = () => fail(new Error('that file is not an image this browser can show'));
    img.src = src;
  });
}

// The picture cropped (centred) to a w × h board's shape, as a data URL:
// one image the tiles all show a part of.
export async function cropped(src, w, h) {
  const img = await loadImage(src);
  const cell = Math.min(96, Math.floor(960 / Math.max(w, h)));
  const canvas = el('canvas');
  canvas.width = w * cell;
  canvas.height = h * cell;
  const iw = img.naturalWidth || img.width, ih = img.naturalHeight || img.height;
  const scale = Math.max(canvas.width / iw, canvas.height / ih);
  const sw = canvas.width / scale, sh = canvas.height / scale;
  canvas.getContext('2d').drawImage(img, (iw - sw) / 2, (ih - sh) / 2, sw, sh, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}

// The source of a built-in picture.
export const builtIn = (name) => `/static/picture-${encodeURIComponent(name)}.svg`;

// Draws what each tile shows under a display type (cells from
// display.js's shownCells) on the tile elements, by tile number, and says
// the same to screen readers in the cells by place: a hidden number is
// hidden from them too. `only` lists the cells to paint (those a move
// changed), else all are. A board on a canvas has no tile elements (the
// canvas draws the cells).
export function paintDisplay(tiles, cells, tileEls, placeEls, w, only = null) {
  for (const i of only ?? cells.keys()) {
    const c = cells[i];
    const place = `row ${Math.floor(i / w) + 1}, column ${(i % w) + 1}`;
    if (c === null) { placeEls[i].textContent = `blank, ${place}`; continue; }
    const tile = tileEls[tiles[i]];
    if (tile) showOnTile(tile, c);
    placeEls[i].textContent = `${said(c)}, ${place}`;
  }
}

function showOnTile(tile, c) {
  tile.classList.toggle('unseen', c.hidden);
  tile.dataset.tint = c.tint ?? '';
  tile.dataset.arrow = c.arrow ? c.arrow.join(',') : '';
  tile.style.opacity = c.opacity ? String(c.opacity[0] / c.opacity[1]) : '';
  if (c.arrow) {
    const [dx, dy] = c.arrow;
    const head = el('span', { class: 'arrow', text: dx === 0 && dy === 0 ? '•' : '→' });
    head.style.transform = `rotate(${Math.atan2(dy, dx)}rad)`;
    tile.replaceChildren(head);
  } else {
    tile.textContent = c.text;
  }
}

// A tile's display in words.
function said(c) {
  if (c.hidden) return 'hidden tile';
  if (c.arrow) return `arrow ${c.arrow[0]} across, ${c.arrow[1]} down`;
  if (c.tint) return `${c.tint} tile`;
  return c.text === '' ? 'tile' : c.text;
}
