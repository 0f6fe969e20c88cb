// A Shisen-Sho race as the race page shows it. It has no rules on the page:
// a pair clicked goes to the server, and the board it leads to (gravity and
// shuffles included) comes back in `progress`. One of the race page's game
// views (race.js says what a view answers).
import { clock, el } from './api.js';
import { face } from './tiles.js';
import { ShisenBoard } from './shisen-board.js';

const $ = (id) => document.getElementById(id);

// Board text (rows split by newlines, `.` empty) → its cells.
function cellsOf(text) {
  return text.replace(/\n+$/, '').split('\n').flatMap((row) => [...row]);
}

export function shisenRace(race) {
  let boards = new Map(); // seat → the last board text heard
  let picked = null;      // the first tile of a pair, by cell
  let board = null;       // my board (shisen-board.js)

  // My board (shisen-board.js), with its counters.
  function render() {
    const { puzzle, mine } = race;
    board.draw({ w: puzzle.w, h: puzzle.h, cells: mine.cells, selected: picked, chinese: puzzle.chinese, solved: mine.done });
    const left = mine.cells.filter((c) => c !== '.').length;
    $('race-moves').textContent = String(mine.moves);
    $('race-left').textContent = String(left);
    $('race-score').textContent = String(mine.score);
    $('race-shuffle').disabled = !race.racing();
    $('race-shuffle').classList.toggle('urgent', mine.stuck);
  }

  const playing = () => race.racing() && race.puzzle.game === 'shisen';

  function sendTurn(turn) {
    const { mine } = race;
    mine.lastT = Math.max(mine.lastT, race.sinceStart());
    race.send({ type: 'turn', turn, t: mine.lastT });
  }

  // A tile clicked: the first of a pair, or the second, which sends the pair.
  function pickTile(i) {
    if (!playing() || race.mine.cells[i] === '.') return;
    if (picked === null || picked === i) {
      picked = picked === i ? null : i;
    } else {
      const [w, a] = [race.puzzle.w, picked];
      picked = null;
      sendTurn([a % w, Math.floor(a / w), i % w, Math.floor(i / w)]);
    }
    render();
  }

  // A spectator's small copy of a racer's board.
  function drawCard(view, text) {
    if (!view.board) return;
    const cells = text.includes('\n') ? cellsOf(text) : [...text];
    view.board.replaceChildren(...cells.map((kind) => {
      if (kind === '.') return el('div', { class: 'mini-gap' });
      const cell = el('div', { class: 'mini-tile', 'data-kind': kind });
      cell.innerHTML = face(kind); // generated SVG, no user text
      return cell;
    }));
    const left = cells.filter((c) => c !== '.').length;
    view.board.setAttribute('aria-label', `${view.name.textContent}'s board: ${left} tiles left`);
  }

  // My own progress: the board the server says my turns led to.
  function mineMoved(m) {
    const { mine } = race;
    $('race-time').textContent = clock(m.t);
    if (!mine) return;
    if (m.board) mine.cells = cellsOf(m.board);
    mine.moves = m.moves;
    mine.score = m.score;
    mine.stuck = m.stuck;
    if (m.stuck) race.status('No pair connects: shuffle.', 'warn');
    render();
  }

  return {
    game: 'shisen',
    columns: [
      ['Turns', (r) => String(r.stm ?? r.moves)],
      ['Score', (r) => String(r.score)],
      ['Tiles left', (r) => String(r.tiles_left)],
    ],

    setup() {
      $('race-shuffle').addEventListener('click', () => {
        if (!playing()) return;
        picked = null;
        sendTurn('shuffle');
      });
      board = new ShisenBoard($('race-shisen'), { pick: pickTile, playing, label: 'your Shisen-Sho board', fit: 'box' });
    },

    puzzle(p) {
      const { board, size, seed, gravity, chinese, variant } = p;
      const rows = board.replace(/\n+$/, '').split('\n');
      return { game: 'shisen', w: [...rows[0]].length, h: rows.length, start: cellsOf(board), seed, size, gravity, chinese, variant };
    },

    fresh(puzzle) {
      const mine = { seed: puzzle.seed, cells: puzzle.start.slice(), moves: 0, score: 0, stuck: false, lastT: 0, done: false };
      if (boards.has(race.me)) mine.cells = cellsOf(boards.get(race.me));
      return mine;
    },

    info(puzzle) {
      const rules = [puzzle.gravity && 'gravity', puzzle.chinese && 'Chinese tiles'].filter(Boolean).join(', ');
      return `Shisen-Sho ${puzzle.size}${rules ? `, ${rules}` : ''} — seed ${puzzle.seed}`;
    },

    started() {
      picked = null;
      $('race-shisen').dataset.seed = String(race.puzzle.seed);
    },

    // Back mid-race: carry on from the last board the server sent.
    resume() {
      if (boards.has(race.me)) race.mine.cells = cellsOf(boards.get(race.me));
    },

    render,

    // The card of an opponent: name, tiles left, score and time; for a
    // spectator, their board too (a racer keeps to their own).
    card(seat) {
      const { puzzle } = race;
      const name = el('span', { text: race.nameOf(seat) });
      const left = el('dd', { 'data-stat': 'tiles_left', text: String(puzzle.start.filter((c) => c !== '.').length) });
      const score = el('dd', { 'data-stat': 'score', text: '0' });
      const moves = el('dd', { 'data-stat': 'moves', text: '0' });
      const time = el('dd', { 'data-stat': 'time', text: '–' });
      const place = el('span', { class: 'racer-place' });
      const board = race.seated() ? null : el('div', { class: 'mini-shisen', role: 'img' });
      board?.style.setProperty('--w', puzzle.w);
      const node = el('article', { class: 'racer shisen-racer', 'data-player': String(seat) },
        el('h4', { title: race.nameOf(seat) }, name, place), ...(board ? [board] : []),
        el('dl', { class: 'racer-stats' }, el('dt', { text: 'Tiles left' }), left, el('dt', { text: 'Score' }), score,
          el('dt', { text: 'Turns' }), moves, el('dt', { text: 'Time' }), time));
      const view = { node, name, left, score, moves, time, place, board };
      drawCard(view, boards.get(seat) ?? puzzle.start.join(''));
      return view;
    },

    progress(m) {
      if (m.board) boards.set(m.player, m.board);
      if (m.player === race.me && race.seated()) {
        mineMoved(m);
        return;
      }
      const view = race.card(m.player);
      if (m.board) drawCard(view, m.board);
      view.left.textContent = String(m.tiles_left);
      view.score.textContent = String(m.score);
      view.moves.textContent = String(m.moves);
      view.time.textContent = clock(m.t);
    },

    clear() {
      boards = new Map();
      picked = null;
      board.clear();
    },
  };
}
