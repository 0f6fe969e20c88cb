// The Shisen-Sho board: one component for every page where tiles are
// picked or watched (the game's page, races, the replay). It lays the board
// out (the window's room on a desk; on a phone tiles at least TOUCH_TILE
// wide, the board turned a quarter when held upright and wider than tall),
// draws a button per cell with the tile's face and, for screen readers,
// its name and place, and draws paths; and it takes every way of picking:
// a click or tap, the arrow keys walking a cursor over tiles and empty
// cells with Enter or Space to pick, and a right-click or long press
// marking the tiles that match. What a pick means stays the page's.
import { el } from './api.js';
import { face, describe } from './tiles.js';
import { matchClass } from './rules.js';

// Tiles are 1.3 times as tall as wide.
export const ASPECT = 1.3;
// The smallest tile on a touch screen: WCAG 2.2 asks for 24 CSS px targets,
// phone makers for 44–48; 32 keeps an 18×8 board one screen wide.
const TOUCH_TILE = 32;

const touchScreen = () => window.innerWidth < 700 || matchMedia('(pointer: coarse)').matches;

// The arrow keys' steps on screen.
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const SVG = 'http://www.w3.org/2000/svg';

export class ShisenBoard {
  // `node` is a `.shisen-board` element. Options:
  //   pick(i): the player picked the tile in cell i (by click, tap, or
  //     Enter or Space on it). Without it the board is only watched.
  //   playing(): whether picks are taken now (default: always).
  //   label: the board's name to a screen reader.
  //   fit: 'page' (the window's room below the board) or 'box' (the width
  //     of the box around it, as beside a race's other boards).
  constructor(node, options = {}) {
    this.node = node;
    this.o = { playing: () => true, label: 'Shisen-Sho board', fit: 'page', ...options };
    this.scene = null;
    this.view = null;
    this.cursor = null;
    this.highlight = null;
    if (!node.hasAttribute('role')) node.setAttribute('role', 'group');
    if (this.o.pick) this.listen();
  }

  // How the board is drawn: the tile size, the width of the empty ring
  // around it (paths run there), and whether it is turned a quarter turn.
  layout() {
    const { w, h } = this.scene;
    const board = this.node;
    if (this.o.fit === 'box') {
      const room = Math.max(240, Math.min(board.parentElement.clientWidth || 720, 900));
      const tw = Math.max(22, Math.min(48, Math.floor(room / (w + 2))));
      return { tw, th: Math.round(tw * ASPECT), ring: 1, turned: false };
    }
    const top = board.getBoundingClientRect().top + window.scrollY;
    if (!touchScreen()) {
      const across = Math.min(window.innerWidth - 48, 1400) / (w + 2);
      const down = (window.innerHeight - top - 12) / ((h + 2) * ASPECT);
      const tw = Math.max(14, Math.min(52, Math.floor(Math.min(across, down))));
      return { tw, th: Math.round(tw * ASPECT), ring: 1, turned: false };
    }
    const room = board.parentElement.clientWidth - 4;
    const ring = 0.5;
    const across = (cols) => Math.floor(room / (cols + 2 * ring));
    const turned = window.innerHeight > window.innerWidth && w > h && across(w) < TOUCH_TILE;
    const [cols, rows] = turned ? [h, w] : [w, h];
    const down = Math.floor((window.innerHeight - top - 12) / ((rows + 2 * ring) * ASPECT));
    const tw = Math.max(TOUCH_TILE, Math.min(52, across(cols), Math.max(down, 0)));
    return { tw, th: Math.round(tw * ASPECT), ring, turned };
  }

  // Where a board point (x, y) is drawn, in tiles from the board's corner;
  // a quarter turn clockwise when the board is turned.
  shown(x, y) {
    const view = this.view;
    const [dx, dy] = view.turned ? [this.scene.h - 1 - y, x] : [x, y];
    return [dx + view.ring, dy + view.ring];
  }

  // The board cell drawn at column `c`, row `r` (0-based), or null.
  cellAt(c, r) {
    const { w, h } = this.scene;
    const [x, y] = this.view.turned ? [r, h - 1 - c] : [c, r];
    return x >= 0 && y >= 0 && x < w && y < h ? y * w + x : null;
  }

  // Column and row of a cell as the player sees them (1-based).
  place(i) {
    const { w } = this.scene;
    const [c, r] = this.shown(i % w, Math.floor(i / w));
    return [Math.round(c - this.view.ring) + 1, Math.round(r - this.view.ring) + 1];
  }

  where(i) {
    const [c, r] = this.place(i);
    return `column ${c}, row ${r}`;
  }

  // Draws `scene`: { w, h, cells (a kind a cell, '.' empty), selected (a
  // cell or null), chinese, solved }.
  draw(scene) {
    this.scene = scene = { selected: null, chinese: false, solved: false, ...scene };
    const board = this.node;
    const hadFocus = board.contains(document.activeElement);
    const view = this.view = this.layout();
    const { tw, th, ring } = view;
    const { w, h, cells } = scene;
    const [cols, rows] = view.turned ? [h, w] : [w, h];
    board.style.width = `${(cols + 2 * ring) * tw}px`;
    board.style.height = `${(rows + 2 * ring) * th}px`;
    board.classList.toggle('turned', view.turned);
    board.classList.toggle('solved', !!scene.solved);
    const left = cells.filter((k) => k !== '.').length;
    board.setAttribute('aria-label', `${this.o.label}, ${cols} columns by ${rows} rows, ${left} tiles`);
    if (this.cursor === null || this.cursor >= cells.length) this.cursor = Math.max(0, cells.findIndex((k) => k !== '.'));
    const nodes = [];
    cells.forEach((kind, i) => {
      const [c, r] = this.shown(i % w, Math.floor(i / w));
      const empty = kind === '.';
      // A watched board has its tiles alone; one played has its empty
      // cells too, for the keyboard's cursor to stop on.
      if (empty && !this.o.pick) return;
      const node = empty
        ? el('button', { type: 'button', class: 'sgap', 'data-gap': String(i) })
        : el(this.o.pick ? 'button' : 'div', {
          class: 'stile', 'data-cell': String(i), 'data-kind': kind, title: describe(kind),
          ...(this.o.pick ? { type: 'button', 'aria-pressed': String(i === scene.selected) } : {}),
        });
      if (this.o.pick) node.tabIndex = i === this.cursor ? 0 : -1;
      Object.assign(node.style, { left: `${c * tw}px`, top: `${r * th}px`, width: `${tw}px`, height: `${th}px` });
      if (!empty) {
        // The face is a picture; its name and place are the button's text,
        // for screen readers only.
        node.innerHTML = face(kind); // generated SVG, no user text
        node.firstElementChild?.setAttribute('aria-hidden', 'true');
        if (i === scene.selected) node.classList.add('selected');
        if (this.highlight && matchClass(kind, scene.chinese) === this.highlight) node.classList.add('same');
      }
      node.prepend(el('span', { class: 'sr-only', text: `${empty ? 'empty' : describe(kind)}, ${this.where(i)}` }));
      nodes.push(node);
    });
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'paths');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('width', String((cols + 2 * ring) * tw));
    svg.setAttribute('height', String((rows + 2 * ring) * th));
    nodes.push(svg);
    board.replaceChildren(...nodes);
    if (hadFocus) board.querySelector('[tabindex="0"]')?.focus();
  }

  // Empties the board.
  clear() {
    this.node.replaceChildren();
    this.scene = null;
  }

  tileAt(i) {
    return this.node.querySelector(`[data-cell="${i}"]`);
  }

  // Draws a path through board points [x, y] (the ring's are -1 or w, h).
  path(points) {
    const svg = this.node.querySelector('svg.paths');
    if (!svg || !points) return;
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', points.map(([x, y]) => {
      const [c, r] = this.shown(x, y);
      return `${(c + 0.5) * this.view.tw},${(r + 0.5) * this.view.th}`;
    }).join(' '));
    svg.append(line);
  }

  // Marks the tiles of `cells` with `cls` (`hinted`, `selected`).
  mark(cls, ...cells) {
    for (const i of cells) this.tileAt(i)?.classList.add(cls);
  }

  // Shakes the tiles of `cells` (a pair that does not connect).
  shake(...cells) {
    for (const i of cells) {
      const t = this.tileAt(i);
      if (!t) continue;
      t.classList.remove('shake');
      void t.offsetWidth; // restart the animation
      t.classList.add('shake');
    }
  }

  // Moves the keyboard's cursor one cell the way the arrow points on the
  // screen (turned boards included), over tiles and empty cells alike, so
  // a player who cannot see the board always knows where they are.
  moveCursor([dc, dr]) {
    const [c, r] = this.place(this.cursor).map((v) => v - 1);
    const next = this.cellAt(c + dc, r + dr);
    if (next === null) return;
    this.cursor = next;
    for (const node of this.node.querySelectorAll('[tabindex="0"]')) node.tabIndex = -1;
    const target = this.tileAt(next) ?? this.node.querySelector(`[data-gap="${next}"]`);
    target.tabIndex = 0;
    target.focus();
  }

  // Marks (or unmarks) the tiles that match the tile `t`.
  toggleSame(t) {
    const cls = matchClass(t.dataset.kind, this.scene.chinese);
    this.highlight = this.highlight === cls ? null : cls;
    this.draw(this.scene);
  }

  listen() {
    const board = this.node;
    board.addEventListener('click', (e) => {
      const t = e.target.closest('.stile');
      if (!t || !this.scene || !this.o.playing()) return;
      this.cursor = Number(t.dataset.cell);
      this.o.pick(Number(t.dataset.cell));
    });
    board.addEventListener('keydown', (e) => {
      if (!(e.key in ARROWS) || !this.scene || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      this.moveCursor(ARROWS[e.key]);
    });
    board.addEventListener('contextmenu', (e) => {
      const t = e.target.closest('.stile');
      if (!t || !this.scene) return;
      e.preventDefault();
      this.toggleSame(t);
    });
    // A long press marks the matching tiles, as a right-click does.
    let press = null;
    board.addEventListener('touchstart', (e) => {
      const t = e.target.closest('.stile');
      if (!t || !this.scene) return;
      press = setTimeout(() => { press = 'done'; this.toggleSame(t); }, 500);
    }, { passive: true });
    board.addEventListener('touchend', (e) => {
      if (press === 'done') e.preventDefault(); // a long press is not a click
      else clearTimeout(press);
      press = null;
    });
  }
}
