// Shisen-Sho: the server deals, finds paths (and applies gravity), gives
// hints and shuffles; undo and redo walk a local history; the whole action
// list is replayed by the server when the board is cleared.
import { post, clock, el } from './api.js';
import { showRecords, reasonText } from './records.js';
import { describe } from './tiles.js';
import { score, matchClass } from './rules.js';
import { ShisenBoard } from './shisen-board.js';
import { announce } from './a11y.js';
import { submit } from './outbox.js';
import { showVerdicts } from './verdicts.js';

const $ = (id) => document.getElementById(id);

let g = null; // the game in play
let selected = null; // index of the selected cell
let board = null; // the board (shisen-board.js)
let busy = false;
let pairs = null; // { at, list }: the pairs that connect on the board at step `at`

function parseBoard(text) {
  const rows = text.replace(/\n+$/, '').split('\n');
  return { w: [...rows[0]].length, h: rows.length, cells: rows.flatMap((r) => [...r]) };
}

const boardText = (cells, w) => {
  const rows = [];
  for (let i = 0; i < cells.length; i += w) rows.push(cells.slice(i, i + w).join(''));
  return rows.join('\n');
};

const cells = () => g.boards[g.at];
const left = () => cells().filter((c) => c !== '.').length;

// Playing time shown on the clock: since the deal was shown, pauses left out.
function elapsed() {
  if (!g) return 0;
  const now = g.finishedAt ?? performance.now();
  const paused = g.pausedAt ? now - g.pausedAt : 0;
  return now - g.shownAt - g.pausedTotal - paused;
}

// Records a turn (a removal [x1, y1, x2, y2], 'shuffle', 'undo' or 'redo')
// and when it was made, in milliseconds since the deal was shown, pauses
// included: the server replays the turns and judges their pace.
function record(turn) {
  hideAnalysis();
  g.turns.push(turn);
  g.times.push(Math.max(0, Math.round(performance.now() - g.shownAt)));
}

// The engine's scoring (shisen::Game::score), shown live; the server's
// figure replaces it when the game is submitted.
function liveScore() {
  const start = g.boards[0].filter((c) => c !== '.').length;
  const help = g.undos + g.hints + g.actions.slice(0, g.at).filter((a) => a === 'shuffle').length;
  return score(start, left(), Math.floor(elapsed() / 1000), help, g.gravity);
}

function tick() {
  if (!g) return;
  $('shisen-time').textContent = clock(elapsed(), false);
  if (!g.boards) return; // paused: the board is with the server
  $('shisen-left').textContent = String(left());
  $('shisen-score').textContent = String(g.finalScore ?? liveScore());
}

function status(text, kind = '') {
  const p = $('shisen-status');
  p.textContent = text;
  p.className = `status ${kind}`;
}

const where = (i) => board.where(i);

function render() {
  if (!g.boards) {
    board.clear();
    return;
  }
  board.draw({ w: g.w, h: g.h, cells: cells(), selected, chinese: g.chinese });
  tick();
  const step = g.at;
  $('shisen-undo').disabled = step === 0;
  $('shisen-redo').disabled = step >= g.actions.length;
}

// Adds a board reached by `action` to the history, dropping redoable steps.
function push(action, next) {
  g.boards.length = g.at + 1;
  g.actions.length = g.at;
  g.boards.push(next);
  g.actions.push(action);
  g.at += 1;
  record(action);
}

async function pick(i) {
  if (!g || busy || g.finished || g.pausedAt) return;
  if (selected === null) {
    selected = i;
    render();
    announce('shisen-said', `${describe(cells()[i])} selected, ${where(i)}`);
    return;
  }
  if (selected === i) {
    selected = null;
    render();
    announce('shisen-said', 'selection cleared');
    return;
  }
  const a = selected;
  selected = null;
  const from = [a % g.w, Math.floor(a / g.w)];
  const to = [i % g.w, Math.floor(i / g.w)];
  busy = true;
  try {
    const r = await post('/api/shisen/path', { board: boardText(cells(), g.w), from, to, gravity: g.gravity, chinese: g.chinese });
    if (!r.path) {
      render();
      board.shake(a, i);
      // The tiles by their names, not the engine's letters.
      const [ka, ki] = [cells()[a], cells()[i]];
      const why = matchClass(ka, g.chinese) === matchClass(ki, g.chinese) ? (r.reason || 'These tiles do not connect.')
        : `${describe(ka)[0].toUpperCase()}${describe(ka).slice(1)} and ${describe(ki)} do not match.`;
      status(why);
      announce('shisen-said', `no path: ${why}; selection cleared`);
      return;
    }
    const kinds = [cells()[a], cells()[i]];
    board.mark('selected', a);
    board.path(r.path);
    await new Promise((done) => setTimeout(done, 260));
    push([from[0], from[1], to[0], to[1]], parseBoard(r.board).cells);
    status('');
    render();
    announce('shisen-said', `removed ${kinds[0] === kinds[1] ? `two ${describe(kinds[0])}` : `${describe(kinds[0])} and ${describe(kinds[1])}`}; ${left()} tiles left${r.won ? '; the board is clear' : ''}`);
    if (r.won) await finish();
    else if (r.stuck) status('No moves left from here: shuffle or undo.', 'warn');
    else checkSolvable();
  } catch (e) {
    render();
    status(e.message, 'error');
  } finally {
    busy = false;
  }
}

// Asks the solver whether the board can still be cleared, and warns if not.
async function checkSolvable() {
  const game = g, step = g.at;
  try {
    const r = await post('/api/shisen/check', { board: boardText(cells(), g.w), gravity: g.gravity, chinese: g.chinese });
    if (game !== g || step !== g.at) return;
    pairs = { game, at: step, list: r.pairs };
    if (r.solvable === false) status('No solution from here: undo, or shuffle.', 'warn');
  } catch { /* the warning is a courtesy; play goes on */ }
}

async function finish() {
  g.finished = true;
  g.finishedAt = performance.now();
  const game = g;
  status('Cleared! Checking with the server…');
  // Kept on this device until the server answers (outbox.js).
  const onKept = (text) => game === g && (status(text, 'warn'), true);
  try {
    const body = { game: game.game, turns: game.turns, times: game.times };
    const r = await submit('/api/shisen/submit', body, { what: 'Shisen-Sho game', onKept });
    if (game !== g) return;
    game.finalScore = r.score;
    tick();
    if (!r.solved) {
      status('The server does not see this board as cleared.', 'error');
      return;
    }
    const verdict = r.ranked ? 'ranked' : `not ranked — ${reasonText(r.reason)}`;
    status(`Cleared in ${clock(r.millis, false)} — score ${r.score}, ${verdict}. `, r.ranked ? 'good' : 'warn');
    $('shisen-status').append(el('a', { href: `/replay/${r.game}`, text: 'Watch the replay' }));
    showRecords($('shisen-records'), 'shisen', game.variant);
  } catch (e) {
    status(`Could not record: ${e.message}`, 'error');
  }
}

async function hint() {
  if (!g || g.finished || g.pausedAt) return;
  try {
    const r = await post('/api/shisen/hint', { board: boardText(cells(), g.w), gravity: g.gravity, chinese: g.chinese, game: g.game });
    if (!r.move) {
      status('No moves left from here: shuffle or undo.', 'warn');
      return;
    }
    g.hints += 1;
    const [x1, y1, x2, y2] = r.move;
    board.mark('hinted', y1 * g.w + x1, y2 * g.w + x2);
    const [p, q] = [y1 * g.w + x1, y2 * g.w + x2];
    announce('shisen-said', `hint: ${describe(cells()[p])} at ${where(p)} with ${where(q)}`);
    // The score counts a hint against a pair taken, and never goes below 0.
    const cost = ` A hint costs one pair's points: the score is ${liveScore()}.`;
    status((r.safe ? 'Hint: a safe pair (the board stays solvable).'
      : r.solvable === false ? 'Hint: a pair that connects — but no solution from here: undo, or shuffle.'
      : 'Hint: a pair that connects.') + cost, r.solvable === false ? 'warn' : '');
  } catch (e) {
    status(e.message, 'error');
  }
}

// ------------------------------------------- the game so far, analysed
// The server replays the turns so far and tells, after each, whether the
// board could still be cleared (null: not decided in time), the losing
// turn, and a winning line from the last winnable position before it: a
// strip of one cell per turn, a summary, and the line's next pair when it
// starts from the board on screen. Asking unranks the game, like a hint.

let analysis = null; // { game, at, report }: the answer for the turns up to `at`

async function analyse() {
  if (!g || g.finished || g.pausedAt || busy) return;
  const game = g, at = g.turns.length;
  status('Analysing the game so far…');
  try {
    const report = await post('/api/shisen/analysis', { game: g.game, turns: g.turns });
    if (game !== g || at !== g.turns.length) return;
    analysis = { game, at, report };
    showAnalysis();
    status('');
  } catch (e) {
    status(e.message, 'error');
  }
}

function showAnalysis() {
  const { at, report } = analysis;
  showVerdicts($('shisen-analysis-strip'), report.solvable.slice(1), 'no turn yet');
  $('shisen-analysis-summary').textContent = analysisSummary(report, at);
  const line = report.continuation;
  $('shisen-analysis-next').hidden = !(line && line.after === at && line.steps.length);
  $('shisen-analysis').hidden = false;
}

function analysisSummary(report, at) {
  const now = report.solvable[report.solvable.length - 1];
  const here = now === true ? 'The board can still be cleared.'
    : now === false ? 'The board can no longer be cleared.'
    : 'Whether the board can still be cleared was not decided in time.';
  const line = report.continuation;
  let lost = '';
  if (report.lost_at === 0) lost = ' The deal itself could not be cleared.';
  else if (report.lost_at != null) lost = ` It was lost at turn ${report.lost_at}.`;
  else if (report.undecided) lost = ' The losing turn is unknown: a turn before could not be decided in time.';
  let win = '';
  if (line && line.after === at && line.steps.length) win = ` A winning line from here takes ${line.steps.length} ${line.steps.length === 1 ? 'pair' : 'pairs'}.`;
  else if (line && line.after < at) win = ` A winning line existed from ${line.after === 0 ? 'the deal' : `turn ${line.after}`}: undo back to it.`;
  return `${here}${lost}${win}`;
}

// Marks the winning line's next pair on the board, as a hint does.
function showNextPair() {
  if (!analysis || analysis.game !== g || analysis.at !== g.turns.length) return;
  const step = analysis.report.continuation.steps[0];
  const [x1, y1, x2, y2] = step.turn.split(/[-,]/).map(Number);
  const [p, q] = [y1 * g.w + x1, y2 * g.w + x2];
  board.mark('hinted', p, q);
  announce('shisen-said', `the winning line goes on with ${describe(cells()[p])} at ${where(p)} with ${where(q)}`);
}

function hideAnalysis() {
  analysis = null;
  $('shisen-analysis').hidden = true;
}

async function shuffle() {
  if (!g || g.finished || g.pausedAt || left() === 0) return;
  try {
    const r = await post('/api/shisen/shuffle', { game: g.game, board: boardText(cells(), g.w), step: g.at });
    push('shuffle', parseBoard(r.board).cells);
    selected = null;
    render();
    status(r.stuck ? 'Still no moves after shuffling: undo or shuffle again.' : 'Shuffled.', r.stuck ? 'warn' : '');
  } catch (e) {
    status(e.message, 'error');
  }
}

function undo() {
  if (!g || g.finished || g.pausedAt || g.at === 0) return;
  g.at -= 1;
  g.undos += 1;
  record('undo');
  selected = null;
  status('');
  render();
  announce('shisen-said', `undone; ${left()} tiles left`);
}

function redo() {
  if (!g || g.finished || g.pausedAt || g.at >= g.actions.length) return;
  g.at += 1;
  record('redo');
  selected = null;
  render();
}

function restart() {
  if (!g || g.finished || g.pausedAt) return;
  g.undos += g.at;
  for (; g.at > 0; g.at -= 1) record('undo');
  selected = null;
  render();
}

// Pausing hands the turns so far to the server and drops the board, so a
// pause cannot be used to study it; resuming gets the boards back.
async function pause() {
  if (!g || g.finished) return;
  const pausing = !g.pausedAt;
  try {
    if (pausing) {
      await post('/api/shisen/pause', { game: g.game, turns: g.turns, times: g.times });
      g.pausedAt = performance.now();
      g.boards = null;
      selected = null;
      hideAnalysis();
    } else {
      const r = await post('/api/shisen/resume', { game: g.game });
      g.boards = r.boards.map((text) => parseBoard(text).cells);
      g.at = r.at;
      g.pausedTotal += performance.now() - g.pausedAt;
      g.pausedAt = null;
    }
  } catch (e) {
    status(e.message, 'error');
    return;
  }
  $('shisen-board').classList.toggle('hidden-board', pausing);
  $('shisen-paused').hidden = !pausing;
  $('shisen-pause').textContent = pausing ? 'Resume' : 'Pause';
  render();
}

function sizeChoice() {
  const preset = $('shisen-preset').value;
  return preset === 'custom' ? { size: $('shisen-custom').value.trim() } : { preset };
}

function shareLink(seed) {
  const params = new URLSearchParams({
    ...sizeChoice(), gravity: g.gravity ? '1' : '0', chinese: g.chinese ? '1' : '0',
    solvable: $('shisen-solvable').checked ? '1' : '0', seed: String(seed),
  });
  return `${location.origin}${location.pathname}#shisen&${params}`;
}

export async function start(params = new URLSearchParams()) {
  if (params.has('preset')) $('shisen-preset').value = params.get('preset');
  if (params.has('size')) { $('shisen-preset').value = 'custom'; $('shisen-custom').value = params.get('size'); }
  $('shisen-custom').hidden = $('shisen-preset').value !== 'custom';
  if (params.has('gravity')) $('shisen-gravity').checked = params.get('gravity') === '1';
  if (params.has('chinese')) $('shisen-chinese').checked = params.get('chinese') === '1';
  const body = { ...sizeChoice(), gravity: $('shisen-gravity').checked, chinese: $('shisen-chinese').checked };
  body.solvable = params.has('solvable') ? params.get('solvable') === '1' : $('shisen-solvable').checked;
  $('shisen-solvable').checked = body.solvable;
  if (params.has('daily')) body.daily = true;
  else if (params.has('seed')) body.seed = Number(params.get('seed'));
  try {
    const r = await post('/api/shisen/new', body);
    const b = parseBoard(r.board);
    hideAnalysis();
    g = {
      game: r.game, seed: r.seed, variant: r.variant, w: b.w, h: b.h,
      gravity: r.gravity, chinese: r.chinese, boards: [b.cells], actions: [], at: 0,
      turns: [], times: [], shownAt: performance.now(), pausedTotal: 0, pausedAt: null, hints: 0, undos: 0,
      finished: false, finalScore: null,
    };
    board.highlight = null;
    selected = null;
    $('shisen-board').classList.remove('hidden-board');
    $('shisen-paused').hidden = true;
    $('shisen-pause').textContent = 'Pause';
    history.replaceState(null, '', r.daily ? '#shisen&daily' : shareLink(r.seed));
    status(`${r.daily ? 'Daily deal' : 'Seed'} ${r.seed}${r.solvable ? ' — solvable' : ' — any deal: it may have no solution'}`);
    render();
    showRecords($('shisen-records'), 'shisen', g.variant);
  } catch (e) {
    status(e.message, 'error');
  }
}

// Reads out the pairs that connect now (from the server's check of this
// board), and the tiles left.
async function readPairs() {
  if (!g || !g.boards) return;
  if (!pairs || pairs.game !== g || pairs.at !== g.at) {
    try {
      const r = await post('/api/shisen/check', { board: boardText(cells(), g.w), gravity: g.gravity, chinese: g.chinese });
      pairs = { game: g, at: g.at, list: r.pairs };
    } catch (e) {
      status(e.message, 'error');
      return;
    }
  }
  const list = pairs.list.map(([x1, y1, x2, y2]) => {
    const [p, q] = [y1 * g.w + x1, y2 * g.w + x2];
    return `${describe(cells()[p])} at ${where(p)} with ${where(q)}`;
  });
  announce('shisen-said', list.length === 0
    ? `No pair connects: shuffle or undo. ${left()} tiles left.`
    : `${list.length} ${list.length === 1 ? 'pair connects' : 'pairs connect'}: ${list.slice(0, 12).join('; ')}${list.length > 12 ? `; and ${list.length - 12} more` : ''}.`);
}

// The game's keys: H, U, P and L anywhere on the page (the board's arrows,
// Enter and Space are shisen-board.js's).
function onKey(e) {
  if ($('page-shisen').hidden || !g || e.ctrlKey || e.metaKey || e.altKey) return;
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
  const keys = {
    h: hint, u: undo, p: readPairs,
    l: () => announce('shisen-said', `${left()} tiles left`),
  };
  const action = keys[e.key.toLowerCase()];
  if (action) { e.preventDefault(); action(); }
}

export function init() {
  board = new ShisenBoard($('shisen-board'), { pick, playing: () => !!g });
  document.addEventListener('keydown', onKey);
  $('shisen-preset').addEventListener('change', () => { $('shisen-custom').hidden = $('shisen-preset').value !== 'custom'; });
  $('shisen-new').addEventListener('click', () => start());
  $('shisen-daily').addEventListener('click', () => start(new URLSearchParams('daily')));
  $('shisen-hint').addEventListener('click', hint);
  $('shisen-analyse').addEventListener('click', analyse);
  $('shisen-analysis-next').addEventListener('click', showNextPair);
  $('shisen-undo').addEventListener('click', undo);
  $('shisen-redo').addEventListener('click', redo);
  $('shisen-shuffle').addEventListener('click', shuffle);
  $('shisen-restart').addEventListener('click', restart);
  $('shisen-pause').addEventListener('click', pause);
  $('shisen-share').addEventListener('click', async () => {
    if (!g) return;
    const link = shareLink(g.seed);
    try { await navigator.clipboard.writeText(link); status(`Link copied: ${link}`); } catch { status(link); }
  });
  window.addEventListener('resize', () => { if (g) render(); });
  // A sign-in or sign-out changes whose results and records are "mine".
  window.addEventListener('tessera:account', () => { if (g) showRecords($('shisen-records'), 'shisen', g.variant); });
  setInterval(tick, 250);
}
