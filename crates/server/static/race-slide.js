// A sliding-puzzle race as the race page shows it: the player's own board,
// played at once with the sliding puzzle's rules (rules.js) and sent move
// by move, and a small live board for everyone else. One of the race
// page's game views (race.js says what a view answers).
import { clock, el } from './api.js';
import { applyMove, mtmCount } from './rules.js';
import { SlideBoard, parse, display, controlMenu, displayMenu } from './slide-board.js';

const $ = (id) => document.getElementById(id);

// `R3U` → ['R', 'R', 'R', 'U'].
function letters(text) {
  const out = [];
  for (const [, letter, count] of text.matchAll(/([UDLR])(\d*)/g)) {
    for (let i = 0; i < (count ? Number(count) : 1); i++) out.push(letter);
  }
  return out;
}

export function slideRace(race) {
  let board = null; // the player's own (slide-board.js)
  const placedOf = (tiles) => tiles.filter((t, i) => t !== 0 && t === race.puzzle.goal[i]).length;

  // My board, drawn with its counters; `quick` after moves.
  function render(quick = false) {
    const { puzzle, mine } = race;
    const { w, h } = puzzle;
    board.draw({
      key: puzzle.seed, w, h, tiles: mine.tiles, goal: puzzle.goal, start: puzzle.start, moves: mine.moves,
      solved: mine.done, display: display(),
    }, quick);
    $('race-moves').textContent = String(mine.moves.length);
    $('race-mtm').textContent = String(mtmCount(mine.moves));
    $('race-placed').textContent = `${placedOf(mine.tiles)}/${mine.tiles.length - 1}`;
  }

  // Plays my moves at once and sends them; the server checks them and
  // tells the others. Hover moves are drawn, not announced (none are).
  function play(moves) {
    const { puzzle, mine } = race;
    // The board's keys and swipes reach here in a race of another game too.
    if (!race.racing() || puzzle.game !== 'slide' || moves.length === 0) return;
    const made = [];
    for (const m of moves) {
      if (!applyMove(mine.tiles, puzzle.w, puzzle.h, m)) break;
      made.push(m);
    }
    if (made.length === 0) return;
    mine.moves.push(...made);
    mine.lastT = Math.max(mine.lastT, race.sinceStart());
    race.send({ type: 'move', moves: made.join(''), t: mine.lastT });
    if (mine.tiles.every((t, i) => t === puzzle.goal[i])) {
      mine.done = true;
      race.status('Solved! Waiting for the server’s time…');
    }
    render(!mine.done);
  }

  function drawCard(view) {
    const { goal } = race.puzzle;
    view.tiles.forEach((t, i) => {
      const cell = view.cells[i];
      cell.textContent = t === 0 ? '' : String(t);
      cell.className = t === 0 ? 'cell blank' : t === goal[i] ? 'cell home' : 'cell';
    });
    const placed = placedOf(view.tiles);
    view.placed.textContent = `${placed}/${view.tiles.length - 1}`;
    view.board.setAttribute('aria-label', `${view.name.textContent}'s board: ${placed} of ${view.tiles.length - 1} tiles in place`);
  }

  return {
    game: 'slide',
    columns: [
      ['Moves', (r) => String(r.stm ?? r.moves)],
      ['MTM', (r) => (r.mtm == null ? '–' : String(r.mtm))],
      ['In place', (r) => String(r.solved_tiles)],
    ],

    setup() {
      board = new SlideBoard($('race-board'), { play, playing: () => race.racing() && race.puzzle?.game === 'slide', label: 'your board', below: 90 });
      const redraw = () => { if (race.puzzle?.game === 'slide' && race.mine) render(); };
      controlMenu($('race-control'), redraw);
      displayMenu($('race-display'), redraw);
    },

    puzzle(p) {
      const start = parse(p.position);
      return { ...start, game: 'slide', start: start.tiles.slice(), goal: parse(p.goal_position).tiles, seed: p.seed, size: p.size, goalName: p.goal };
    },

    fresh(puzzle) {
      return { seed: puzzle.seed, tiles: puzzle.start.slice(), moves: [], lastT: 0, done: false };
    },

    info: (puzzle) => `${puzzle.size}, goal ${puzzle.goalName} — seed ${puzzle.seed}`,

    started() {
      if (race.racing() && !matchMedia('(pointer: coarse)').matches) $('race-board').focus();
    },

    // Back mid-race: carry on from the moves the server kept.
    resume(m) {
      const { puzzle, mine } = race;
      mine.tiles = puzzle.start.slice();
      mine.moves = letters(m.moves);
      for (const l of mine.moves) applyMove(mine.tiles, puzzle.w, puzzle.h, l);
    },

    render: () => render(),

    // The card of `seat`: name, a small board, moves, tiles in place and time.
    card(seat) {
      const { w, h, start } = race.puzzle;
      const name = el('span', { text: race.nameOf(seat) });
      const board = el('div', { class: 'mini-board', role: 'img' });
      board.style.setProperty('--w', w);
      board.style.setProperty('--h', h);
      const cells = start.map(() => board.appendChild(el('div', { class: 'cell' })));
      const moves = el('dd', { 'data-stat': 'moves', text: '0' });
      const placed = el('dd', { 'data-stat': 'placed', text: '0' });
      const time = el('dd', { 'data-stat': 'time', text: '–' });
      const place = el('span', { class: 'racer-place' });
      const node = el('article', { class: 'racer', 'data-player': String(seat) },
        el('h4', { title: race.nameOf(seat) }, name, place), board,
        el('dl', { class: 'racer-stats' }, el('dt', { text: 'Moves' }), moves, el('dt', { text: 'In place' }), placed, el('dt', { text: 'Time' }), time));
      const view = { node, name, board, cells, moves, placed, time, place, tiles: start.slice() };
      drawCard(view);
      return view;
    },

    progress(m) {
      if (m.player === race.me && race.seated()) {
        $('race-time').textContent = clock(m.t);
        return;
      }
      const view = race.card(m.player);
      if (m.position) view.tiles = parse(m.position).tiles;
      view.moves.textContent = String(m.moves);
      view.time.textContent = clock(m.t);
      drawCard(view);
    },

    clear() {
      board.clear();
    },
  };
}
