// Time attack, /time-attack: POST /api/time-attack deals a run (every
// puzzle at once, with its optimal length), the page plays it on its own
// clock, the puzzles one after another on the sliding board
// (slide-board.js, every control the player may choose; the moves by
// rules.js), adds the time the server's rule
// gives for efficient solves (the server sends the amounts), and at the end
// sends every puzzle played with its move times to
// POST /api/time-attack/{run}, which replays, scores and judges it. The
// bests and leaderboards come from GET /api/time-attack.
import { get, post, clock, el } from './api.js';
import * as a11y from './a11y.js';
import { applyMove } from './rules.js';
import { SlideBoard, parse, display, controlMenu, displayMenu } from './slide-board.js';
import { submit } from './outbox.js';

const $ = (id) => document.getElementById(id);
const say = (text) => a11y.announce('ta-said', text);

let run = null;   // the run being played: the server's answer and the play
let ticker = 0;
let board = null;

const now = () => Math.max(0, Math.round(performance.now() - run.shownAt));
const playing = () => !!run && !run.over;
const current = () => run.puzzles[run.index];

function status(text, kind = '') {
  $('ta-status').textContent = text;
  $('ta-status').className = `status ${kind}`;
}

function bests(best) {
  const shown = (n) => (n == null ? 'none yet' : String(n));
  $('ta-bests').textContent = `Your best today: ${shown(best.today)}. All time: ${shown(best.all_time)}.`;
}

function leaders(caption, places) {
  if (places.length === 0) return el('p', { class: 'help', text: `${caption}: nobody yet.` });
  const rows = places.map((p) => el('tr', {},
    el('td', { text: String(p.rank) }),
    el('td', {}, el('a', { href: `/u/${encodeURIComponent(p.handle)}`, text: p.handle })),
    el('td', { text: String(p.score) })));
  return el('table', { class: 'records' },
    el('caption', { text: caption }),
    el('thead', {}, el('tr', {}, ...['Rank', 'Player', 'Score'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows));
}

async function showBoard() {
  try {
    const board = await get('/api/time-attack');
    bests(board.best);
    $('ta-leaders').replaceChildren(
      leaders(`Today (${board.today}, UTC)`, board.leaders_today),
      leaders('All time', board.leaders_all_time));
  } catch (e) {
    $('ta-leaders').replaceChildren(el('p', { class: 'status error', text: `The leaderboards could not be loaded: ${e.message}` }));
  }
}

// The clock left, the counters and the board of the puzzle on show;
// `quick` after moves.
function render(quick = false) {
  const p = current();
  $('ta-score').textContent = String(run.score);
  $('ta-puzzle').textContent = `${run.index + 1} of ${run.puzzles.length} (${p.optimal} moves at best)`;
  $('ta-moves').textContent = String(run.played[run.index].moves.length);
  $('ta-within').textContent = String(p.efficient_within);
  $('ta-streak').textContent = String(run.streak);
  const played = run.played[run.index];
  board.draw({ key: `${run.id}-${run.index}`, w: 4, h: 4, tiles: run.tiles, goal: p.goal, start: p.start, moves: played.moves, display: display() }, quick);
}

function tick() {
  if (!playing()) return;
  const left = run.endsAt - now();
  $('ta-clock').textContent = clock(left, left < 10_000);
  if (left <= 0) finish('The time is up.');
}

// Plays `letters` on the puzzle on show; a solve scores, may add time,
// and shows the next puzzle.
function play(letters) {
  if (!playing()) return;
  const p = current();
  const played = run.played[run.index];
  for (const letter of letters) {
    if (!applyMove(run.tiles, 4, 4, letter)) break;
    played.moves.push(letter);
    played.times.push(now());
  }
  if (!run.tiles.every((t, i) => t === p.goal[i])) {
    render(true);
    return;
  }
  if (now() > run.endsAt) {
    finish('The time is up.');
    return;
  }
  run.score += 1;
  if (played.moves.length <= p.efficient_within) {
    run.streak += 1;
    const bonus = run.bonuses[Math.min(run.streak, run.bonuses.length) - 1];
    run.endsAt += bonus;
    say(`Solved in ${played.moves.length}: plus ${bonus / 1000} seconds. Score ${run.score}.`);
  } else {
    run.streak = 0;
    say(`Solved in ${played.moves.length}. Score ${run.score}.`);
  }
  if (run.index + 1 === run.puzzles.length) {
    finish('Every puzzle solved!');
    return;
  }
  run.index += 1;
  run.tiles = current().start.slice();
  run.played.push({ moves: [], times: [] });
  render();
}

async function start() {
  $('ta-start').disabled = true;
  status('Dealing…');
  let dealt;
  try {
    dealt = await post('/api/time-attack', {});
  } catch (e) {
    status(`The run could not start: ${e.message}`, 'error');
    $('ta-start').disabled = false;
    return;
  }
  const puzzles = dealt.puzzles.map((p) => ({ ...p, start: parse(p.position).tiles, goal: parse(p.goal).tiles }));
  run = {
    id: dealt.run, puzzles, index: 0, tiles: puzzles[0].start.slice(), played: [{ moves: [], times: [] }],
    score: 0, streak: 0, endsAt: dealt.clock_millis, bonuses: dealt.bonus_millis, over: false, shownAt: performance.now(),
  };
  status('');
  $('ta-result').hidden = true;
  $('ta-play').hidden = false;
  $('ta-start').hidden = true;
  $('ta-end').hidden = false;
  render();
  tick();
  ticker = setInterval(tick, 100);
  if (!matchMedia('(pointer: coarse)').matches) $('ta-board').focus();
  say('The run has started: puzzle 1.');
}

// Ends the run and sends it: every puzzle played, the last perhaps unsolved.
async function finish(why) {
  if (!playing()) return;
  run.over = true;
  clearInterval(ticker);
  $('ta-clock').textContent = clock(Math.max(0, run.endsAt - now()), false);
  $('ta-end').hidden = true;
  status(`${why} Sending the run…`);
  const puzzles = run.played
    .filter((p) => p.moves.length > 0)
    .map((p) => ({ moves: p.moves.join(''), times: p.times }));
  // Kept on this device until the server answers (outbox.js): meanwhile
  // another run may start, and this one's answer then shows in the notice.
  const sent = run;
  const onKept = (text) => {
    status(text, 'warn');
    $('ta-start').hidden = false;
    $('ta-start').disabled = false;
    return true;
  };
  let scored;
  try {
    scored = await submit(`/api/time-attack/${run.id}`, { puzzles }, { what: 'time-attack run', onKept });
    if (run !== sent) return;
  } catch (e) {
    if (run !== sent) return;
    status(`The run could not be scored: ${e.message}`, 'error');
    $('ta-start').hidden = false;
    $('ta-start').disabled = false;
    return;
  }
  const ranked = scored.ranked ? 'Ranked.' : `Not ranked: ${scored.unranked}.`;
  $('ta-result-text').textContent = `Score: ${scored.score}. ${ranked} The bonuses added ${Math.round(scored.bonus_millis / 1000)} s.`;
  $('ta-result').hidden = false;
  status(why);
  say(`Your score: ${scored.score}.`);
  bests(scored.best);
  $('ta-start').hidden = false;
  $('ta-start').disabled = false;
  $('ta-start').textContent = 'Start another run';
  showBoard();
}

board = new SlideBoard($('ta-board'), { play, playing, label: 'the puzzle', below: 60 });
controlMenu($('ta-control'), () => { if (run) render(); });
displayMenu($('ta-display'), () => { if (run) render(); });
$('ta-start').addEventListener('click', start);
$('ta-end').addEventListener('click', () => finish('You ended the run.'));
a11y.init();
showBoard();
