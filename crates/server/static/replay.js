// The replay page: a finished game played back at its real pace. The
// server gives the moves and the time of each (GET /api/replays/{game});
// sliding moves are applied here with the page's rules, Shisen-Sho boards
// and paths come from the server's replay.
import { get, clock, el } from './api.js';
import { applyMove, mtmCount } from './rules.js';
import * as a11y from './a11y.js';
import { showVerdicts } from './verdicts.js';
import { SlideBoard, parse, display } from './slide-board.js';
import { ShisenBoard } from './shisen-board.js';

const $ = (id) => document.getElementById(id);

let r = null;       // the replay as the server gave it
let frames = [];    // what to draw after 0, 1, …, n moves
let at = 0;         // moves shown
let clockMs = 0;    // replay time
let playing = false;
let last = null;    // the animation frame's previous timestamp
let board = null;   // a sliding puzzle's board (slide-board.js), watched
let shisenBoard = null; // or a Shisen-Sho one (shisen-board.js)
// Where the replay's clock starts, in the stored times: a sliding solve's
// first move (reading the scramble is not timed), 0 for a blindfold
// solve, whose memorising is, and for Shisen-Sho.
let origin = 0;

const speed = () => Number($('replay-speed').value);
const total = () => r.times.length;
const timeOf = (k) => (k === 0 ? 0 : r.times[k - 1]);

function parseBoard(text) {
  const rows = text.replace(/\n+$/, '').split('\n');
  return { w: [...rows[0]].length, h: rows.length, cells: rows.flatMap((row) => [...row]) };
}

// Sliding puzzle: the position after every move.
function slideFrames() {
  const p = parse(r.position);
  const goal = parse(r.goal).tiles;
  const tiles = p.tiles.slice();
  const out = [{ tiles: tiles.slice(), played: 0 }];
  for (const m of r.moves) {
    applyMove(tiles, p.w, p.h, m);
    out.push({ tiles: tiles.slice(), played: out.length });
  }
  return out.map((f) => ({ ...f, w: p.w, h: p.h, goal, start: p.tiles, moves: r.moves }));
}

// Shisen-Sho: the deal, then each step's board and the path it removed.
function shisenFrames() {
  const deal = parseBoard(r.position);
  const out = [{ cells: deal.cells, path: null, turn: null, before: null }];
  let before = deal.cells;
  for (const step of r.steps) {
    const cells = parseBoard(step.board).cells;
    out.push({ cells, path: step.path, turn: step.turn, before });
    before = cells;
  }
  return out.map((f) => ({ ...f, w: deal.w, h: deal.h }));
}

// The position on the board that every page plays on, under the
// watcher's display type and look; a format's next puzzle (a relay's next
// size) is a board of its own.
function drawSlide(f) {
  board ??= new SlideBoard($('replay-board'), { label: 'the replay', fit: false });
  board.draw({
    key: f.puzzle ?? 0, w: f.w, h: f.h, tiles: f.tiles, goal: f.goal, start: f.start, moves: f.moves, played: f.played,
    display: display(), solved: at === total(),
  }, true);
}

// A removal is shown on the board it was made on, with its path; the next
// frame shows the board after it. The last frame shows the board as it was
// left (cleared), the last path still drawn. On the board every page
// shows (shisen-board.js), watched.
function drawShisen(f) {
  const node = $('replay-board');
  node.className = 'shisen-board';
  shisenBoard ??= new ShisenBoard(node, { label: 'the replay\'s Shisen-Sho board' });
  shisenBoard.draw({ w: f.w, h: f.h, cells: f.path && at < total() ? f.before : f.cells });
  if (!f.path) return;
  const [first, last] = [f.path[0], f.path[f.path.length - 1]];
  shisenBoard.mark('selected', first[1] * f.w + first[0], last[1] * f.w + last[0]);
  shisenBoard.path(f.path);
}

function draw() {
  const f = frames[at];
  if (r.kind === 'slide') drawSlide(f); else drawShisen(f);
  analysisMarker();
  lossMarker();
  $('replay-move').textContent = String(at);
  $('replay-scrub').value = String(at);
  $('replay-clock').textContent = clock(clockMs);
  const turn = r.kind === 'shisen' && f.turn ? `turn ${at}: ${f.turn.replace('-', ' with ')}` : '';
  $('replay-status').textContent = at === total() ? (r.kind === 'slide' ? 'Solved.' : 'Cleared.') : turn;
  if (isFormat()) showPuzzle(f.puzzle);
  marker();
  followPuzzle();
}

// Jumps to `k` moves, the clock at that move's time.
function seek(k) {
  at = Math.max(0, Math.min(total(), k));
  clockMs = timeOf(at);
  draw();
}

function frame(now) {
  if (!playing) return;
  if (last !== null) clockMs += (now - last) * speed();
  last = now;
  let moved = false;
  while (at < total() && r.times[at] <= clockMs) { at += 1; moved = true; }
  if (moved) draw(); else $('replay-clock').textContent = clock(clockMs);
  marker();
  if (at >= total()) { setPlaying(false); return; }
  requestAnimationFrame(frame);
}

function setPlaying(on) {
  playing = on && total() > 0;
  if (playing && at >= total()) seek(0);
  $('replay-play').textContent = playing ? '❚❚ Pause' : '▶ Play';
  last = null;
  if (playing) requestAnimationFrame(frame); else followPuzzle();
}

// Moves a second in a one-second window, sampled across the solve.
function graph() {
  const svg = $('replay-tps');
  const end = Math.max(1, timeOf(total()));
  const samples = 120;
  const points = [];
  let peak = 1;
  const rates = [];
  for (let i = 0; i <= samples; i += 1) {
    const t = (end * i) / samples;
    const inWindow = r.times.filter((x) => x > t - 1000 && x <= t).length;
    rates.push(inWindow);
    peak = Math.max(peak, inWindow);
  }
  rates.forEach((rate, i) => points.push(`${(600 * i) / samples},${115 - (105 * rate) / peak}`));
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', points.join(' '));
  line.setAttribute('class', 'tps-line');
  const axis = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  axis.setAttribute('x', '4');
  axis.setAttribute('y', '12');
  axis.setAttribute('class', 'tps-axis');
  axis.textContent = `peak ${peak}/s`;
  const mark = document.createElementNS('http://www.w3.org/2000/svg', 'line');
  mark.setAttribute('id', 'replay-marker');
  mark.setAttribute('y1', '0');
  mark.setAttribute('y2', '120');
  svg.replaceChildren(line, axis, mark);
  $('replay-graph-caption').textContent = `${r.kind === 'slide' ? 'moves' : 'turns'} per second over the ${clock(end)} of play (one-second window)`;
}

function marker() {
  const mark = document.getElementById('replay-marker');
  if (!mark) return;
  const x = (600 * clockMs) / Math.max(1, timeOf(total()));
  mark.setAttribute('x1', String(Math.min(600, x)));
  mark.setAttribute('x2', String(Math.min(600, x)));
}

// The replay as text: slidy notation (or the turns) and the times.
function text() {
  const head = [
    `# tessera replay ${r.game}: ${r.variant}, seed ${r.seed}, by ${r.name || 'anonymous'}`,
    `# ${clock(r.millis)}${r.kind === 'slide' ? `, ${r.stm} STM, ${r.mtm} MTM, ${r.tps.toFixed(2)} TPS` : `, score ${r.score}`}; ${r.ranked ? 'ranked' : `not ranked: ${r.reason}`}`,
  ];
  if (r.kind === 'slide') {
    head.push(`# start: ${r.position}`, `# goal: ${r.goal} (${r.goal_name})`, r.compact);
  } else {
    head.push(`# deal (${r.rules}):`, ...r.position.trim().split('\n').map((row) => `# ${row}`), r.moves);
  }
  head.push(`# times (ms since the puzzle was shown, one per ${r.kind === 'slide' ? 'single-tile move' : 'turn'}):`, r.times.map((t) => t + origin).join(' '));
  return `${head.join('\n')}\n`;
}

// The look before the clock started, as slidysim leaves it untimed (a
// blindfold solve's memorising, which is timed).
function reading() {
  if (r.reading_ms == null) return '';
  return r.format === 'bld' ? ` · memorised in ${clock(r.reading_ms)}` : ` · read for ${clock(r.reading_ms)} first`;
}

function info() {
  const who = r.name || 'anonymous';
  const verdict = r.ranked ? 'ranked' : `not ranked — ${r.reason}`;
  $('replay-title').textContent = `${r.kind === 'slide' ? 'Sliding puzzle' : 'Shisen-Sho'} ${r.variant} by ${who}`;
  $('replay-info').textContent = r.kind === 'slide'
    ? `${clock(r.millis)} · ${r.stm} moves (${r.mtm} MTM) · ${r.tps.toFixed(2)} TPS (${r.tps_mtm.toFixed(2)} in MTM)${reading()} · ${verdict}`
    : `${clock(r.millis)} · ${r.removals} removals in ${r.turns} turns · score ${r.score} · ${verdict}`;
}

async function load() {
  const id = location.pathname.split('/').filter(Boolean).pop();
  try {
    r = await get(`/api/replays/${encodeURIComponent(id)}`);
  } catch (e) {
    $('replay-status').textContent = e.message;
    $('replay-status').className = 'status error';
    return;
  }
  // A format's moves are stored puzzle by puzzle, split by commas; its
  // times run on one clock, so the flat list plays them one after another.
  if (r.kind === 'slide') r.moves = [...r.moves.replaceAll(',', '')];
  origin = r.kind === 'slide' && r.format !== 'bld' ? (r.times[0] ?? 0) : 0;
  r.times = r.times.map((t) => t - origin);
  if (isFormat()) frames = formatFrames(); else frames = r.kind === 'slide' ? slideFrames() : shisenFrames();
  if (isFormat()) splits();
  else if (r.kind === 'slide' && mtmCount(r.moves) !== r.mtm) console.warn('MTM count differs from the server');
  $('replay-total').textContent = String(total());
  $('replay-scrub').max = String(total());
  info();
  graph();
  seek(0);
}

// --- Formats: a marathon's or relay's puzzles one after another, with splits.

// Whether the replay is of a format of several puzzles.
function isFormat() {
  return r.kind === 'slide' && Array.isArray(r.puzzles) && r.puzzles.length > 1;
}

// The position after every move of the whole format. The moment a puzzle
// is solved the next one is shown, as it was in play; the last stays solved.
function formatFrames() {
  const out = [];
  r.puzzles.forEach((puzzle, i) => {
    const p = parse(puzzle.position);
    const goal = parse(puzzle.goal).tiles;
    const tiles = p.tiles.slice();
    const moves = [...puzzle.moves];
    let played = 0;
    const frame = () => ({ tiles: tiles.slice(), w: p.w, h: p.h, goal, puzzle: i, start: p.tiles, moves, played });
    if (i === 0) out.push(frame()); else out[out.length - 1] = frame();
    for (const m of moves) {
      applyMove(tiles, p.w, p.h, m);
      played += 1;
      out.push(frame());
    }
  });
  return out;
}

// The moves played before puzzle `i`.
function puzzleStart(i) {
  return r.puzzles.slice(0, i).reduce((n, p) => n + p.moves.length, 0);
}

// The splits: each puzzle's time, when it was solved on the format's clock
// and its moves; a button jumps to the puzzle.
function splits() {
  const list = $('replay-splits');
  list.replaceChildren(...r.puzzles.map((p, i) => {
    const jump = el('button', { type: 'button', class: 'split', text: `${i + 1}. ${p.size} · ${clock(p.millis)} · split ${clock(p.split - origin)} · ${p.stm} moves` });
    jump.addEventListener('click', () => { setPlaying(false); seek(puzzleStart(i)); });
    return el('li', {}, jump);
  }));
  $('replay-format').hidden = false;
  $('replay-format-title').textContent = `${r.format}: ${r.puzzles.length} puzzles, splits`;
}

// Marks the puzzle on the board among the splits.
function showPuzzle(i) {
  [...$('replay-splits').children].forEach((li, k) => {
    const button = li.firstChild;
    if (k === i) button.setAttribute('aria-current', 'step'); else button.removeAttribute('aria-current');
  });
  $('replay-puzzle').textContent = `puzzle ${i + 1} of ${r.puzzles.length} (${r.puzzles[i].size})`;
}

$('replay-play').addEventListener('click', () => setPlaying(!playing));
$('replay-back').addEventListener('click', () => { setPlaying(false); seek(at - 1); });
$('replay-forward').addEventListener('click', () => { setPlaying(false); seek(at + 1); });
$('replay-start').addEventListener('click', () => { setPlaying(false); seek(0); });
$('replay-end').addEventListener('click', () => { setPlaying(false); seek(total()); });
$('replay-scrub').addEventListener('input', () => { setPlaying(false); seek(Number($('replay-scrub').value)); });
document.addEventListener('keydown', (e) => {
  if (!r || e.target.tagName === 'SELECT') return;
  const keys = { ArrowLeft: () => seek(at - 1), ArrowRight: () => seek(at + 1), Home: () => seek(0), End: () => seek(total()) };
  if (e.key === ' ') { e.preventDefault(); setPlaying(!playing); }
  if (e.key in keys) { e.preventDefault(); setPlaying(false); keys[e.key](); }
});
$('replay-share').addEventListener('click', async () => {
  try { await navigator.clipboard.writeText(location.href); $('replay-status').textContent = `Link copied: ${location.href}`; } catch { $('replay-status').textContent = location.href; }
});
$('replay-download').addEventListener('click', () => {
  const blob = new Blob([text()], { type: 'text/plain' });
  const a = el('a', { href: URL.createObjectURL(blob), download: `tessera-replay-${r.game}.txt` });
  document.body.append(a);
  a.click();
  a.remove();
});
window.addEventListener('resize', () => { if (r && r.kind === 'shisen') draw(); });
// ---------------------------------------------------------------- analysis
// For a sliding solve the server tells the optimal distance to the goal
// after every move (GET /api/replays/{game}/analysis): drawn as a line
// under the TPS graph, the moves that went away ringed in red, with an
// optimal solution and the player's own shortened to play on the board.

let analysis = null;
let yours = null; // the replay as played, while another solution is shown
const analyses = new Map(); // a format's analyses, by puzzle

// The analysis of puzzle `k` (0 for a single solve): a marathon's or
// relay's puzzles are analysed one at a time, as they are looked at.
async function loadAnalysis(k = 0) {
  if (r.kind === 'shisen') { await loadLoss(); return; }
  if (!analyses.has(k)) {
    const query = isFormat() ? `?puzzle=${k}` : '';
    analyses.set(k, get(`/api/replays/${encodeURIComponent(r.game)}/analysis${query}`));
  }
  try {
    const a = await analyses.get(k);
    if (isFormat() && currentPuzzle() !== k) return; // moved on meanwhile
    analysis = a;
  } catch (e) {
    analyses.delete(k);
    $('analysis-summary').textContent = `No analysis: ${e.message}`;
    $('replay-analysis').hidden = false;
    return;
  }
  const a = analysis;
  const bound = a.exact ? '' : ' (some distances are only lower bounds)';
  const lost = a.lost == null ? 'moves lost: unknown' : `${a.lost} ${a.lost === 1 ? 'move' : 'moves'} lost`;
  const worst = a.detours[0] ? `; the costliest stretch, moves ${a.detours[0].from + 1}–${a.detours[0].to}, lost ${a.detours[0].lost}` : '';
  const which = isFormat() ? `Puzzle ${k + 1} of ${r.puzzles.length} (${r.puzzles[k].size}). ` : '';
  $('analysis-title').textContent = isFormat() ? `Analysis of puzzle ${k + 1}` : 'Analysis';
  $('analysis-optimal').textContent = (a.solution_optimal ?? a.exact) ? 'Play an optimal solution' : 'Play the best solution found';
  $('analysis-summary').textContent = `${which}Optimal: ${a.exact ? '' : 'at least '}${a.optimal} moves; played: ${a.steps.length}; ${lost}${worst}${bound}.`;
  distanceGraph();
  $('replay-analysis').hidden = false;
}

// The puzzle on the board (0 for a single solve).
function currentPuzzle() {
  return isFormat() ? (frames[at]?.puzzle ?? 0) : 0;
}

// A format's analysis follows the puzzle on the board, once playing stops.
function followPuzzle() {
  if (!r || r.kind !== 'slide' || !isFormat() || playing || yours) return;
  if (!analysis || analysis.puzzle !== currentPuzzle()) loadAnalysis(currentPuzzle());
}

function distanceGraph() {
  const svg = $('replay-distance');
  const d = analysis.distances;
  const peak = Math.max(1, ...d);
  const x = (i) => (600 * i) / Math.max(1, d.length - 1);
  const y = (v) => 115 - (105 * v) / peak;
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', d.map((v, i) => `${x(i)},${y(v)}`).join(' '));
  line.setAttribute('class', 'tps-line');
  const nodes = [line];
  analysis.steps.forEach((s, i) => {
    if (s.progress !== 1) return;
    const ring = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
    Object.entries({ cx: x(i + 1), cy: y(d[i + 1]), r: 4, class: 'away-mark' }).forEach(([k, v]) => ring.setAttribute(k, String(v)));
    nodes.push(ring);
  });
  const axis = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  axis.setAttribute('x', '4');
  axis.setAttribute('y', '12');
  axis.setAttribute('class', 'tps-axis');
  axis.textContent = `${peak} to go`;
  const mark = document.createElementNS('http://www.w3.org/2000/svg', 'line');
  mark.setAttribute('id', 'distance-marker');
  mark.setAttribute('y1', '0');
  mark.setAttribute('y2', '120');
  svg.replaceChildren(...nodes, axis, mark);
  const away = analysis.steps.filter((s) => s.progress === 1).length;
  const which = isFormat() ? `puzzle ${analysis.puzzle + 1}: ` : '';
  svg.setAttribute('aria-label', `${which}distance to the goal after each move, from ${d[0]} to ${d[d.length - 1]}; ${away} ${away === 1 ? 'move' : 'moves'} went away from the goal`);
  analysisMarker();
}

// The marker on the distance line: where the board is within the
// analysed puzzle.
function analysisMarker() {
  const mark = document.getElementById('distance-marker');
  if (!mark || yours || !analysis) return;
  const k = isFormat() ? analysis.puzzle : 0;
  const start = isFormat() ? puzzleStart(k) : 0;
  const n = isFormat() ? r.puzzles[k].moves.length : total();
  const x = (600 * Math.max(0, Math.min(n, at - start))) / Math.max(1, n);
  mark.setAttribute('x1', String(x));
  mark.setAttribute('x2', String(x));
}

// Shows `moves` on the analysed puzzle's board at the player's mean pace
// there, or the player's own replay again.
function showSolution(moves, label) {
  setPlaying(false);
  if (!yours) yours = { moves: r.moves, times: r.times, position: r.position, goal: r.goal, puzzles: r.puzzles };
  if (moves === null) {
    Object.assign(r, yours);
    yours = null;
    frames = isFormat() ? formatFrames() : slideFrames();
  } else {
    const puzzle = yours.puzzles[analysis.puzzle ?? 0];
    const pace = Math.max(120, Math.round(puzzle.millis / Math.max(1, puzzle.moves.length)));
    // While it plays the replay is this puzzle alone.
    Object.assign(r, { moves: [...moves], times: [...moves].map((_, i) => (i + 1) * pace), position: puzzle.position, goal: puzzle.goal, puzzles: [puzzle] });
    frames = slideFrames().map((f) => ({ ...f, puzzle: analysis.puzzle ?? 0 }));
  }
  $('replay-total').textContent = String(total());
  $('replay-scrub').max = String(total());
  $('analysis-yours').hidden = yours === null;
  $('replay-status').textContent = label;
  seek(moves === null && isFormat() ? puzzleStart(analysis.puzzle) : 0);
  if (moves !== null) setPlaying(true);
}

$('analysis-optimal').addEventListener('click', () =>
  showSolution(analysis.optimal_solution, `${analysis.solution_optimal ? 'An optimal solution' : 'The best solution found (not proven optimal)'}: ${analysis.optimal_solution.length} moves.`));
$('analysis-shortened').addEventListener('click', () =>
  showSolution(analysis.shortened, `Your solution, shortened: ${analysis.shortened.length} moves.`));
$('analysis-yours').addEventListener('click', () => showSolution(null, 'Your solution.'));

// ------------------------------------------------- where the game was lost
// For a Shisen-Sho game the server tells, after every turn, whether the
// board could still be cleared (null: not decided in time), the losing
// turn, and a winning line from the last winnable position with its
// boards: a strip of one cell per turn, a button that goes to the losing
// turn and one that plays the winning line on the board.

let loss = null;
let played = null; // the game as played, while the winning line is shown

async function loadLoss() {
  try {
    loss = await get(`/api/replays/${encodeURIComponent(r.game)}/analysis`);
  } catch (e) {
    $('loss-summary').textContent = `No analysis: ${e.message}`;
    $('loss-analysis').hidden = false;
    return;
  }
  showVerdicts($('loss-strip'), loss.solvable.slice(1), 'no turn');
  const summary = lossSummary();
  $('loss-summary').textContent = summary;
  const jump = $('loss-jump');
  jump.hidden = loss.lost_at == null || loss.lost_at === 0;
  if (!jump.hidden) jump.textContent = `Go to the losing turn (${loss.lost_at})`;
  const line = loss.continuation;
  $('loss-continue').hidden = !line || line.steps.length === 0;
  if (line && line.steps.length) {
    const from = line.after === 0 ? 'the deal' : `turn ${line.after}`;
    $('loss-continue').textContent = `Play the winning line from ${from} (${line.steps.length} pairs)`;
  }
  $('loss-analysis').hidden = false;
  lossMarker();
}

function lossSummary() {
  const line = loss.continuation;
  const from = line && (line.after === 0 ? 'the deal' : `turn ${line.after}`);
  if (loss.lost_at === 0) return 'The deal itself could not be cleared.';
  if (loss.lost_at != null) {
    return `Lost at turn ${loss.lost_at}: after it the board could no longer be cleared.${line ? ` A winning line existed from ${from}.` : ''}`;
  }
  if (loss.undecided) return 'The losing turn is unknown: a turn before the first lost one could not be decided in time.';
  const unknown = loss.solvable.filter((v) => v === null).length;
  return unknown
    ? `Never proven lost; ${unknown} ${unknown === 1 ? 'position was' : 'positions were'} not decided in time.`
    : 'Never lost: the board could be cleared after every turn.';
}

// Outlines the cell of the turn shown.
function lossMarker() {
  const strip = $('loss-strip');
  [...strip.children].forEach((cell, i) => cell.classList.toggle('current', !played && i + 1 === at));
}

// Shows the winning line on the board from where it starts, at the
// player's mean pace; or the game as played again.
function showLine(line) {
  setPlaying(false);
  if (line === null) {
    Object.assign(r, played);
    played = null;
  } else {
    played = { steps: r.steps, times: r.times };
    const pace = Math.max(300, Math.round((r.times[r.times.length - 1] || 0) / Math.max(1, r.times.length)));
    const start = timeOf(line.after);
    Object.assign(r, {
      steps: [...r.steps.slice(0, line.after), ...line.steps],
      times: [...r.times.slice(0, line.after), ...line.steps.map((_, i) => start + (i + 1) * pace)],
    });
  }
  frames = shisenFrames();
  $('replay-total').textContent = String(total());
  $('replay-scrub').max = String(total());
  $('loss-yours').hidden = played === null;
  $('replay-status').textContent = line === null ? 'The game as played.' : `A winning line from ${line.after === 0 ? 'the deal' : `turn ${line.after}`}.`;
  seek(line === null ? 0 : line.after);
  if (line !== null) setPlaying(true);
}

$('loss-jump').addEventListener('click', () => {
  if (played) showLine(null);
  setPlaying(false);
  seek(loss.lost_at);
  $('replay-status').textContent = `Turn ${loss.lost_at}, the losing turn: ${frames[at].turn.replace('-', ' with ')}.`;
});
$('loss-continue').addEventListener('click', () => showLine(loss.continuation));
$('loss-yours').addEventListener('click', () => showLine(null));

a11y.init();
load().then(loadAnalysis);
