// The race page: a room's lobby, the countdown, the player's own board and
// a small live board for everyone else, then the results. The room speaks
// over one WebSocket (docs/race-protocol.md); the server checks every move
// and keeps the clock, the page applies its own moves at once with the
// same rules as the sliding puzzle (rules.js). A Shisen-Sho race has no
// rules on the page: a pair clicked goes to the server, and the board it
// leads to (gravity and shuffles included) comes back in `progress`.
import { clock, el } from './api.js';
import { applyMove, mtmCount } from './rules.js';
import { parse, draw, listen } from './slide-board.js';
import { face, describe } from './tiles.js';
import { poolName, ratingAfter, ratingChange, ratingIn } from './ratings.js';
import * as a11y from './a11y.js';
import { followArena } from './arena-follow.js';

const $ = (id) => document.getElementById(id);
const say = (text) => a11y.announce('race-said', text);

const room = decodeURIComponent(location.pathname.split('/')[2] || '');
const NAME_KEY = 'tessera-race-name';

let socket = null;
let me = null;          // my seat once joined
// The name I joined with, to take my seat again after a reconnect or a
// reload (the server knows me by my cookie and keeps the seat 30 s).
const SEAT_KEY = `tessera-race-${room}`;
let joinedAs = (() => { try { return sessionStorage.getItem(SEAT_KEY); } catch { return null; } })();
let phase = 'lobby';
let players = [];       // as the last `room` said
let puzzle = null;      // the round's puzzle, once started
let startedAt = 0;      // performance.now() at the start
let mine = null;        // my board: { tiles, moves, lastT, done }
let others = new Map(); // seat → { tiles, moves, placed, t, place }
let countdownTimer = null;
let leaving = false;
let boards = new Map(); // Shisen-Sho: seat → the last board text heard
let picked = null;      // Shisen-Sho: the first tile of a pair, by cell
let rated = null;       // the room's rating pool, if rated
let ratedBefore = 0;    // my rated races in the pool when this one started

// `R3U` → ['R', 'R', 'R', 'U'].
function letters(text) {
  const out = [];
  for (const [, letter, count] of text.matchAll(/([UDLR])(\d*)/g)) {
    for (let i = 0; i < (count ? Number(count) : 1); i++) out.push(letter);
  }
  return out;
}

const nameOf = (seat) => players.find((p) => p.player === seat)?.name ?? `player ${seat}`;
const ordinal = (n) => `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' })[n] || 'th'}`;
const placedOf = (tiles) => tiles.filter((t, i) => t !== 0 && t === puzzle.goal[i]).length;
const sinceStart = () => Math.max(0, Math.round(performance.now() - startedAt));

function status(text, kind = '') {
  $('race-status').textContent = text;
  $('race-status').className = `status ${kind}`;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

// --- the connection -------------------------------------------------------

// One socket for the page; a lost one is opened again, and a player who
// had joined takes their seat back (the server keeps it for 30 s).
let failures = 0; // sockets in a row that never opened
function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/api/races/${encodeURIComponent(room)}/ws`);
  let opened = false;
  socket.addEventListener('open', () => {
    opened = true;
    failures = 0;
    window.dispatchEvent(new Event('tessera:online'));
    if (joinedAs) send({ type: 'join', name: joinedAs });
  });
  socket.addEventListener('message', (e) => {
    let message;
    try { message = JSON.parse(e.data); } catch { return; }
    (HANDLERS[message.type] || (() => {}))(message);
  });
  socket.addEventListener('close', (e) => {
    if (leaving) return;
    // 1008 and 1009 are the server refusing this page: trying again would
    // be refused again.
    if (e.code === 1008 || e.code === 1009) {
      status(`The race closed the connection: ${e.reason || 'refused'}`, 'error');
      return;
    }
    // A room that cannot be reached three times running has most likely
    // expired (an empty room goes after a minute), or the link is wrong.
    failures = opened ? 0 : failures + 1;
    if (failures >= 3) {
      status('This race cannot be reached: it may have ended. Open a new one from the sliding puzzle.', 'error');
      $('race-status').append(' ', el('a', { href: '/#slide', text: 'To the sliding puzzle' }));
      return;
    }
    window.dispatchEvent(new Event('tessera:offline'));
    setTimeout(connect, 1000);
  });
}

const HANDLERS = {
  room: onRoom,
  welcome: onWelcome,
  countdown: onCountdown,
  start: onStart,
  progress: onProgress,
  finish: onFinish,
  results: onResults,
  bus: (m) => status(m.away
    ? 'The race server lost its link to the other servers: moves are not saved until it is back (a few seconds).'
    : 'The race server is back: carry on.', m.away ? 'warn' : 'good'),
  error: (m) => {
    status(m.message, 'error');
    if (/no open race|expired/.test(m.message)) leaving = true;
  },
};

// --- the lobby ----------------------------------------------------------

function onRoom(m) {
  const before = phase;
  phase = m.state;
  players = m.players;
  rated = m.rated ?? null;
  if (before === 'finished' && phase === 'lobby') newRound();
  showLobby(m.spectators);
  for (const p of players) {
    const card = others.get(p.player);
    if (card) card.name.textContent = p.name;
  }
}

function showLobby(spectators) {
  const list = $('race-players');
  list.replaceChildren(...players.map((p) => {
    const bits = [p.ready ? 'ready' : 'not ready'];
    if (p.host) bits.push('host');
    if (!p.connected) bits.push('away');
    if (p.player === me) bits.push('you');
    return el('li', { class: p.ready ? 'ready' : '', 'data-player': String(p.player) },
      el('strong', { text: p.name }), ` — ${bits.join(', ')}`);
  }));
  if (players.length === 0) list.append(el('li', { text: 'Nobody has joined yet.' }));
  if (spectators > 0) list.append(el('li', { class: 'watching', text: `${spectators} watching` }));
  if (rated) list.prepend(el('li', { class: 'rated', text: `Rated race (${poolName(rated)}): signed-in players only; every racer's rating moves when it ends.` }));
  const inLobby = phase === 'lobby';
  const seat = players.find((p) => p.player === me);
  $('race-lobby').hidden = !(inLobby || phase === 'countdown');
  $('race-join').hidden = !inLobby || !!seat;
  $('race-ready').hidden = !inLobby || !seat;
  $('race-start').hidden = !inLobby || !seat?.host || players.length < 2;
  if (seat) {
    $('race-ready').setAttribute('aria-pressed', String(seat.ready));
    $('race-ready').textContent = seat.ready ? 'Ready — click to wait' : "I'm ready";
  }
  $('race-rematch').hidden = phase !== 'finished' || !seat;
}

function onWelcome(m) {
  me = m.player;
  others.get(me)?.node.remove();
  others.delete(me);
  // A racer back mid-race carries on from the moves the server kept.
  if (puzzle?.game === 'shisen' && mine) {
    if (boards.has(me)) mine.cells = cellsOf(boards.get(me));
  } else if (puzzle && mine) {
    mine.tiles = puzzle.start.slice();
    mine.moves = letters(m.moves);
    for (const l of mine.moves) applyMove(mine.tiles, puzzle.w, puzzle.h, l);
  }
  showLobby(0);
  showArena();
}

function join(event) {
  event.preventDefault();
  const name = $('race-name').value.trim();
  if (!name) return;
  try { localStorage.setItem(NAME_KEY, name); } catch { /* this visit only */ }
  joinedAs = name;
  try { sessionStorage.setItem(SEAT_KEY, name); } catch { /* this page only */ }
  send({ type: 'join', name });
}

// --- the countdown and the start ----------------------------------------------

function onCountdown(m) {
  clearInterval(countdownTimer);
  const ends = performance.now() + m.ms;
  const box = $('race-countdown');
  box.hidden = false;
  const show = () => {
    const left = Math.ceil((ends - performance.now()) / 1000);
    if (left <= 0) { clearInterval(countdownTimer); return; }
    box.textContent = String(left);
  };
  show();
  countdownTimer = setInterval(show, 100);
  say(`The race starts in ${Math.round(m.ms / 1000)} seconds.`);
  status('Get ready…');
}

// My account's handle, if I race signed in.
const myHandle = () => players.find((p) => p.player === me)?.account ?? null;

function onStart(m) {
  clearInterval(countdownTimer);
  $('race-rating').hidden = true;
  if (rated && myHandle()) {
    ratingIn(myHandle(), rated).then((r) => { ratedBefore = r ? r.games : 0; }).catch(() => {});
  }
  $('race-countdown').hidden = true;
  if (m.puzzle.game === 'shisen') return startShisen(m);
  showGame('slide');
  const p = parse(m.puzzle.position);
  puzzle = { ...p, start: p.tiles.slice(), goal: parse(m.puzzle.goal_position).tiles, seed: m.puzzle.seed, size: m.puzzle.size, goalName: m.puzzle.goal };
  startedAt = performance.now() - m.elapsed;
  const keep = mine && mine.seed === puzzle.seed ? mine : null;
  mine = keep || { seed: puzzle.seed, tiles: p.tiles.slice(), moves: [], lastT: 0, done: false };
  others = new Map();
  $('race-boards').replaceChildren();
  $('race-info').textContent = `${puzzle.size}, goal ${puzzle.goalName} — seed ${puzzle.seed}`;
  $('race-board').dataset.seed = String(puzzle.seed);
  showArena();
  if (m.elapsed === 0) {
    say('Go!');
    status('Go!', 'good');
  }
  if (racing() && !matchMedia('(pointer: coarse)').matches) $('race-board').focus();
}

// A new round after a rematch: the boards go until the next start.
function newRound() {
  puzzle = null;
  mine = null;
  others = new Map();
  boards = new Map();
  picked = null;
  $('race-shisen').replaceChildren();
  $('race-boards').replaceChildren();
  $('race-results').hidden = true;
  $('race-board').replaceChildren();
  delete $('race-board').dataset.game;
  status('Rematch: get ready for a new puzzle.');
  showArena();
}

const seated = () => me !== null && players.some((p) => p.player === me);
const racing = () => phase === 'racing' && seated() && mine && !mine.done;

function showArena() {
  const playing = !!puzzle && seated();
  $('race-mine').hidden = !playing;
  $('race-others').hidden = !puzzle;
  if (!puzzle) return;
  if (playing) (puzzle.game === 'shisen' ? renderShisen : renderMine)();
  for (const p of players) if (p.player !== me) card(p.player);
}

// --- my board ----------------------------------------------------------

function renderMine() {
  const { w, h } = puzzle;
  draw($('race-board'), { key: puzzle.seed, w, h, tiles: mine.tiles, goal: puzzle.goal, label: 'your board', solved: mine.done });
  $('race-moves').textContent = String(mine.moves.length);
  $('race-mtm').textContent = String(mtmCount(mine.moves));
  $('race-placed').textContent = `${placedOf(mine.tiles)}/${mine.tiles.length - 1}`;
}

// Plays my moves at once and sends them; the server checks them and tells
// the others.
function play(moves) {
  if (!racing() || puzzle.game === 'shisen' || moves.length === 0) return;
  const made = [];
  for (const m of moves) {
    if (!applyMove(mine.tiles, puzzle.w, puzzle.h, m)) break;
    made.push(m);
  }
  if (made.length === 0) return;
  mine.moves.push(...made);
  mine.lastT = Math.max(mine.lastT, sinceStart());
  send({ type: 'move', moves: made.join(''), t: mine.lastT });
  if (mine.tiles.every((t, i) => t === puzzle.goal[i])) {
    mine.done = true;
    status('Solved! Waiting for the server’s time…');
  }
  renderMine();
}

// --- the others' boards ---------------------------------------------------

// The card of `seat`: name, a small board, moves, tiles in place and time.
function card(seat) {
  if (others.has(seat)) return others.get(seat);
  if (puzzle.game === 'shisen') return shisenCard(seat);
  const { w, h } = puzzle;
  const name = el('span', { text: nameOf(seat) });
  const board = el('div', { class: 'mini-board', role: 'img' });
  board.style.setProperty('--w', w);
  board.style.setProperty('--h', h);
  const cells = puzzle.start.map(() => board.appendChild(el('div', { class: 'cell' })));
  const moves = el('dd', { 'data-stat': 'moves', text: '0' });
  const placed = el('dd', { 'data-stat': 'placed', text: '0' });
  const time = el('dd', { 'data-stat': 'time', text: '–' });
  const place = el('span', { class: 'racer-place' });
  const node = el('article', { class: 'racer', 'data-player': String(seat) },
    el('h4', { title: nameOf(seat) }, name, place), board,
    el('dl', { class: 'racer-stats' }, el('dt', { text: 'Moves' }), moves, el('dt', { text: 'In place' }), placed, el('dt', { text: 'Time' }), time));
  $('race-boards').append(node);
  const view = { node, name, board, cells, moves, placed, time, place, tiles: puzzle.start.slice() };
  others.set(seat, view);
  drawCard(view);
  return view;
}

function drawCard(view) {
  view.tiles.forEach((t, i) => {
    const cell = view.cells[i];
    cell.textContent = t === 0 ? '' : String(t);
    cell.className = t === 0 ? 'cell blank' : t === puzzle.goal[i] ? 'cell home' : 'cell';
  });
  const placed = placedOf(view.tiles);
  view.placed.textContent = `${placed}/${view.tiles.length - 1}`;
  view.board.setAttribute('aria-label', `${view.name.textContent}'s board: ${placed} of ${view.tiles.length - 1} tiles in place`);
}

function onProgress(m) {
  if (!puzzle) return;
  if (puzzle.game === 'shisen') return shisenProgress(m);
  if (m.player === me && seated()) {
    $('race-time').textContent = clock(m.t);
    return;
  }
  const view = card(m.player);
  if (m.position) view.tiles = parse(m.position).tiles;
  view.moves.textContent = String(m.moves);
  view.time.textContent = clock(m.t);
  drawCard(view);
}

function onFinish(m) {
  const { place, millis, stm, score } = m.result;
  if (m.player === me && seated()) {
    if (mine) mine.done = true;
    $('race-time').textContent = clock(millis);
    const made = stm == null ? `score ${score}` : `${stm} moves`;
    status(`You finished ${ordinal(place)} in ${clock(millis)}, ${made}.`, 'good');
    say(`You finished ${ordinal(place)} in ${clock(millis)}.`);
    if (puzzle) (puzzle.game === 'shisen' ? renderShisen : renderMine)();
    return;
  }
  if (!puzzle) return;
  const view = card(m.player);
  view.place.textContent = ` — ${ordinal(place)}`;
  view.time.textContent = clock(millis);
  view.node.classList.add('done');
  say(`${nameOf(m.player)} finished ${ordinal(place)} in ${clock(millis)}.`);
}

// --- the results -----------------------------------------------------------

function onResults(m) {
  const shisen = puzzle?.game === 'shisen' || m.results.some((r) => 'tiles_left' in r);
  const heads = shisen
    ? ['Place', 'Player', 'Time', 'Turns', 'Score', 'Tiles left', 'Replay']
    : ['Place', 'Player', 'Time', 'Moves', 'MTM', 'In place', 'Replay'];
  $('race-table').tHead.rows[0].replaceChildren(...heads.map((text) => el('th', { scope: 'col', text })));
  const rows = m.results.map((r) => {
    const replay = r.game
      ? el('a', { href: `/replay/${r.game}`, class: 'replay-link', text: 'Watch', 'aria-label': `Watch ${r.name}'s replay` })
      : el('span', { text: '–' });
    return el('tr', { class: r.player === me ? 'mine' : '', 'data-player': String(r.player) },
      el('td', { text: r.place ? ordinal(r.place) : 'did not finish' }),
      el('th', { scope: 'row', text: r.name }),
      el('td', { text: r.millis == null ? '–' : clock(r.millis) }),
      el('td', { text: String(r.stm ?? r.moves) }),
      el('td', { text: shisen ? String(r.score) : r.mtm == null ? '–' : String(r.mtm) }),
      el('td', { text: String(shisen ? r.tiles_left : r.solved_tiles) }),
      el('td', {}, replay));
  });
  $('race-table').tBodies[0].replaceChildren(...rows);
  $('race-results').hidden = false;
  const spoken = m.results.map((r) => `${r.place ? ordinal(r.place) : 'unplaced'}, ${r.name}${r.millis == null ? '' : `, ${clock(r.millis)}`}`);
  say(`Results: ${spoken.join('; ')}.`);
  status('The race is over.');
  if (rated && myHandle()) showRating(myHandle(), rated);
}

// My new rating once the race is settled.
async function showRating(handle, pool) {
  const r = await ratingAfter(handle, pool, ratedBefore);
  if (!r) return;
  const line = $('race-rating');
  line.textContent = `Your ${poolName(pool)} rating: ${ratingChange(r)}`;
  line.hidden = false;
  say(line.textContent);
}

// --- controls ---------------------------------------------------------------

function setupBoard() {
  listen($('race-board'), {
    playing: racing,
    tiles: () => mine.tiles,
    w: () => puzzle.w,
    play,
  });
  window.addEventListener('resize', () => { if (puzzle && seated()) (puzzle.game === 'shisen' ? renderShisen : renderMine)(); });
}

function setupControls() {
  $('race-url').value = location.href.split('#')[0];
  $('race-copy').addEventListener('click', async () => {
    try { await navigator.clipboard.writeText($('race-url').value); status('Link copied: send it to your friends.'); } catch { $('race-url').select(); status('Copy the selected link.'); }
  });
  try { $('race-name').value = localStorage.getItem(NAME_KEY) || ''; } catch { /* none kept */ }
  $('race-join').addEventListener('submit', join);
  $('race-ready').addEventListener('click', () => {
    const seat = players.find((p) => p.player === me);
    send({ type: 'ready', ready: !(seat && seat.ready) });
  });
  $('race-start').addEventListener('click', () => send({ type: 'start' }));
  $('race-shuffle').addEventListener('click', () => {
    if (!racing() || puzzle.game !== 'shisen') return;
    picked = null;
    sendTurn('shuffle');
  });
  $('race-shisen').addEventListener('click', (e) => {
    const tile = e.target.closest('.stile');
    if (tile) pickTile(Number(tile.dataset.cell));
  });
  $('race-rematch').addEventListener('click', () => send({ type: 'rematch' }));
  // The clock runs on the page between the server's progress messages.
  setInterval(() => {
    if (racing()) $('race-time').textContent = clock(sinceStart());
  }, 100);
}

// --- Shisen-Sho --------------------------------------------------------------

// Which game's board and counters show.
function showGame(game) {
  for (const node of document.querySelectorAll('[data-game]')) node.hidden = node.dataset.game !== game;
  $('race-board').hidden = game !== 'slide';
  $('race-shisen').hidden = game !== 'shisen';
}

// Board text (rows split by newlines, `.` empty) → its cells.
function cellsOf(text) {
  return text.replace(/\n+$/, '').split('\n').flatMap((row) => [...row]);
}

function startShisen(m) {
  const { board, size, seed, gravity, chinese, variant } = m.puzzle;
  const rows = board.replace(/\n+$/, '').split('\n');
  puzzle = { game: 'shisen', w: [...rows[0]].length, h: rows.length, start: cellsOf(board), seed, size, gravity, chinese, variant };
  startedAt = performance.now() - m.elapsed;
  const keep = mine && mine.seed === seed ? mine : null;
  mine = keep || { seed, cells: puzzle.start.slice(), moves: 0, score: 0, stuck: false, lastT: 0, done: false };
  if (!keep && boards.has(me)) mine.cells = cellsOf(boards.get(me));
  others = new Map();
  picked = null;
  $('race-boards').replaceChildren();
  const rules = [gravity && 'gravity', chinese && 'Chinese tiles'].filter(Boolean).join(', ');
  $('race-info').textContent = `Shisen-Sho ${size}${rules ? `, ${rules}` : ''} — seed ${seed}`;
  $('race-shisen').dataset.seed = String(seed);
  $('race-board').dataset.seed = String(seed);
  showGame('shisen');
  showArena();
  if (m.elapsed === 0) {
    say('Go!');
    status('Go!', 'good');
  }
}

// My board: a button per tile, with the single game's faces, on a felt
// with a one-tile ring around it (where paths may run).
function renderShisen() {
  const box = $('race-shisen');
  const { w, h } = puzzle;
  const room = Math.max(240, Math.min(box.parentElement.clientWidth || 720, 900));
  const tw = Math.max(22, Math.min(48, Math.floor(room / (w + 2))));
  const th = Math.round(tw * 1.3);
  box.style.width = `${(w + 2) * tw}px`;
  box.style.height = `${(h + 2) * th}px`;
  const left = mine.cells.filter((c) => c !== '.').length;
  box.setAttribute('aria-label', `your Shisen-Sho board, ${w} by ${h}, ${left} tiles left`);
  const nodes = [];
  mine.cells.forEach((kind, i) => {
    if (kind === '.') return;
    const [x, y] = [i % w, Math.floor(i / w)];
    const node = el('button', {
      type: 'button', class: i === picked ? 'stile selected' : 'stile', 'data-cell': String(i), 'data-kind': kind,
      title: describe(kind), 'aria-pressed': String(i === picked),
    });
    Object.assign(node.style, { left: `${(x + 1) * tw}px`, top: `${(y + 1) * th}px`, width: `${tw}px`, height: `${th}px` });
    node.innerHTML = face(kind); // generated SVG, no user text
    node.firstElementChild?.setAttribute('aria-hidden', 'true');
    node.prepend(el('span', { class: 'sr-only', text: `${describe(kind)}, row ${y + 1}, column ${x + 1}` }));
    nodes.push(node);
  });
  box.replaceChildren(...nodes);
  box.classList.toggle('solved', mine.done);
  $('race-moves').textContent = String(mine.moves);
  $('race-left').textContent = String(left);
  $('race-score').textContent = String(mine.score);
  $('race-shuffle').disabled = !racing();
  $('race-shuffle').classList.toggle('urgent', mine.stuck);
}

// A tile clicked: the first of a pair, or the second, which sends the pair.
function pickTile(i) {
  if (!racing() || mine.cells[i] === '.') return;
  if (picked === null || picked === i) {
    picked = picked === i ? null : i;
  } else {
    const [w, a] = [puzzle.w, picked];
    picked = null;
    sendTurn([a % w, Math.floor(a / w), i % w, Math.floor(i / w)]);
  }
  renderShisen();
}

function sendTurn(turn) {
  mine.lastT = Math.max(mine.lastT, sinceStart());
  send({ type: 'turn', turn, t: mine.lastT });
}

// The card of a Shisen-Sho opponent: name, tiles left, score and time;
// for a spectator, their board too (a racer keeps to their own).
function shisenCard(seat) {
  const name = el('span', { text: nameOf(seat) });
  const left = el('dd', { 'data-stat': 'tiles_left', text: String(puzzle.start.filter((c) => c !== '.').length) });
  const score = el('dd', { 'data-stat': 'score', text: '0' });
  const moves = el('dd', { 'data-stat': 'moves', text: '0' });
  const time = el('dd', { 'data-stat': 'time', text: '–' });
  const place = el('span', { class: 'racer-place' });
  const board = seated() ? null : el('div', { class: 'mini-shisen', role: 'img' });
  board?.style.setProperty('--w', puzzle.w);
  const node = el('article', { class: 'racer shisen-racer', 'data-player': String(seat) },
    el('h4', { title: nameOf(seat) }, name, place), ...(board ? [board] : []),
    el('dl', { class: 'racer-stats' }, el('dt', { text: 'Tiles left' }), left, el('dt', { text: 'Score' }), score,
      el('dt', { text: 'Turns' }), moves, el('dt', { text: 'Time' }), time));
  $('race-boards').append(node);
  const view = { node, name, left, score, moves, time, place, board };
  others.set(seat, view);
  drawShisenCard(view, boards.get(seat) ?? puzzle.start.join(''));
  return view;
}

// A spectator's small copy of a racer's board.
function drawShisenCard(view, text) {
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

function shisenProgress(m) {
  if (m.board) boards.set(m.player, m.board);
  if (m.player === me && seated()) {
    $('race-time').textContent = clock(m.t);
    if (!mine) return;
    if (m.board) mine.cells = cellsOf(m.board);
    mine.moves = m.moves;
    mine.score = m.score;
    mine.stuck = m.stuck;
    if (m.stuck) status('No pair connects: shuffle.', 'warn');
    renderShisen();
    return;
  }
  const view = card(m.player);
  if (m.board) drawShisenCard(view, m.board);
  view.left.textContent = String(m.tiles_left);
  view.score.textContent = String(m.score);
  view.moves.textContent = String(m.moves);
  view.time.textContent = clock(m.t);
}

a11y.init();
setupControls();
setupBoard();
connect();
followArena();
