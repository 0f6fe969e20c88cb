// The race page: a room's lobby, the countdown, the player's own board and
// a small live board for everyone else, then the results. The room speaks
// over one WebSocket (docs/race-protocol.md); the server checks every move
// and keeps the clock.
//
// What differs by game is a view of its own (race-slide.js,
// race-shisen.js), made from the `race` below and answering one
// interface: `game`, the results' `columns` ([heading, cell of a result]),
// `setup()` once, `puzzle(p)` from a start message's puzzle, `fresh(puzzle)`
// my board at the start, `info(puzzle)`, `started()`, `resume(welcome)`
// after a reconnect mid-race, `render()` my board, `card(seat)` an
// opponent's card, `progress(m)` and `clear()` between rounds.
import { clock, el } from './api.js';
import { slideRace } from './race-slide.js';
import { shisenRace } from './race-shisen.js';
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
let mine = null;        // my board, as the game's view keeps it
let others = new Map(); // seat → the game view's card of that racer
let countdownTimer = null;
let leaving = false;
let rated = null;       // the room's rating pool, if rated
let ratedBefore = new Map(); // handle → their rated races in the pool when this one started
let deals = null;       // the puzzle the room deals, as `room` names it
let paired = false;     // a pairing seated the racers: no joining, no readying
let account = null;     // the signed-in account, who joins under their handle
// What `joinedAs` holds for a player who joined under their account.
const AS_ACCOUNT = '@account';

const nameOf = (seat) => players.find((p) => p.player === seat)?.name ?? `player ${seat}`;
const ordinal = (n) => `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' })[n] || 'th'}`;
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
    if (joinedAs === AS_ACCOUNT) send({ type: 'join' });
    else if (joinedAs) send({ type: 'join', name: joinedAs });
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
  aborted: onAborted,
  you: (m) => { account = m.account ? { handle: m.account } : null; showLobby(); },
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
  deals = m.deals ?? null;
  paired = !!m.paired;
  if (before === 'finished' && phase === 'lobby') newRound();
  if (phase === 'aborted' && before !== 'aborted') aborted([]);
  if (!puzzle && deals) $('race-info').textContent = dealsText(deals);
  showLobby(m.spectators);
  for (const p of players) {
    const card = others.get(p.player);
    if (card) card.name.textContent = p.name;
  }
}

let lastSpectators = 0;
function showLobby(spectators = lastSpectators) {
  lastSpectators = spectators;
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
  if (paired && phase === 'lobby') {
    list.prepend(el('li', { class: 'paired', text: 'Paired: the race starts on its own once every racer is here.' }));
  }
  $('race-deals').textContent = deals ? `It deals: ${dealsText(deals)}.` : '';
  const inLobby = phase === 'lobby';
  const seat = players.find((p) => p.player === me);
  $('race-lobby').hidden = !(inLobby || phase === 'countdown');
  $('race-join').hidden = !inLobby || !!seat || paired;
  $('race-ready').hidden = !inLobby || !seat || paired;
  $('race-start').hidden = !inLobby || !seat?.host || players.length < 2 || paired;
  $('race-name-label').hidden = !!account;
  $('race-name').required = !account;
  $('race-join-button').textContent = account ? `Join the race as ${account.handle}` : 'Join the race';
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
  // A racer back mid-race carries on from what the server kept.
  if (puzzle && mine) view.resume(m);
  showLobby();
  showArena();
}

function join(event) {
  event.preventDefault();
  if (account) {
    // A signed-in player races under their handle: no name to give.
    joinedAs = AS_ACCOUNT;
    try { sessionStorage.setItem(SEAT_KEY, AS_ACCOUNT); } catch { /* this page only */ }
    send({ type: 'join' });
    return;
  }
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
  const what = deals ? dealsText(deals) : 'the race';
  say(`${what} starts in ${Math.round(m.ms / 1000)} seconds.`);
  status(`Get ready: ${what}…`);
}

// The puzzle a room deals, in words: "4×4 sliding puzzle, row-major goal".
function dealsText(d) {
  const size = d.size.replace('x', '×');
  if (d.game === 'slide') return `${size} sliding puzzle, ${d.goal} goal`;
  const rules = [d.gravity && 'gravity', d.chinese && 'Chinese tiles'].filter(Boolean);
  return `${size} Shisen-Sho${rules.length ? ` (${rules.join(', ')})` : ''}`;
}

// The pairing's race called off: `seats` made no first move in time.
function onAborted(m) {
  phase = 'aborted';
  aborted(m.players);
}

function aborted(seats) {
  clearInterval(countdownTimer);
  $('race-countdown').hidden = true;
  if (mine) mine.done = true;
  const who = seats.map((seat) => (seat === me ? 'you' : nameOf(seat)));
  const why = who.length ? `${who.join(' and ')} made no first move in time` : 'a racer made no first move in time';
  const text = `Race aborted: ${why}. It is not rated: nobody's rating moved.`;
  status(text, 'warn');
  say(text);
}

// My account's handle, if I race signed in.
const myHandle = () => players.find((p) => p.player === me)?.account ?? null;

function onStart(m) {
  clearInterval(countdownTimer);
  $('race-rating').hidden = true;
  ratedBefore = new Map();
  if (rated) {
    for (const handle of players.map((p) => p.account).filter(Boolean)) {
      ratingIn(handle, rated).then((r) => { ratedBefore.set(handle, r ? r.games : 0); }).catch(() => {});
    }
  }
  $('race-countdown').hidden = true;
  view = VIEWS[m.puzzle.game];
  puzzle = view.puzzle(m.puzzle);
  startedAt = performance.now() - m.elapsed;
  const keep = mine && mine.seed === puzzle.seed ? mine : null;
  mine = keep || view.fresh(puzzle);
  others = new Map();
  $('race-boards').replaceChildren();
  $('race-info').textContent = view.info(puzzle);
  $('race-board').dataset.seed = String(puzzle.seed);
  showGame(view.game);
  showArena();
  if (m.elapsed === 0) {
    say('Go!');
    status('Go!', 'good');
  }
  view.started();
}

// A new round after a rematch: the boards go until the next start.
function newRound() {
  puzzle = null;
  mine = null;
  others = new Map();
  for (const v of Object.values(VIEWS)) v.clear();
  $('race-boards').replaceChildren();
  $('race-results').hidden = true;
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
  if (playing) view.render();
  for (const p of players) if (p.player !== me) card(p.player);
}

// --- the others' boards ---------------------------------------------------

// The card of `seat`, made by the game's view the first time it is asked.
function card(seat) {
  if (!others.has(seat)) {
    const made = view.card(seat);
    $('race-boards').append(made.node);
    others.set(seat, made);
  }
  return others.get(seat);
}

function onProgress(m) {
  if (puzzle) view.progress(m);
}

function onFinish(m) {
  const { place, millis, stm, score } = m.result;
  if (m.player === me && seated()) {
    if (mine) mine.done = true;
    $('race-time').textContent = clock(millis);
    const made = stm == null ? `score ${score}` : `${stm} moves`;
    status(`You finished ${ordinal(place)} in ${clock(millis)}, ${made}.`, 'good');
    say(`You finished ${ordinal(place)} in ${clock(millis)}.`);
    if (puzzle) view.render();
    return;
  }
  if (!puzzle) return;
  const racer = card(m.player);
  racer.place.textContent = ` — ${ordinal(place)}`;
  racer.time.textContent = clock(millis);
  racer.node.classList.add('done');
  say(`${nameOf(m.player)} finished ${ordinal(place)} in ${clock(millis)}.`);
}

// --- the results -----------------------------------------------------------

function onResults(m) {
  // A spectator who came after the start has no puzzle: the results say
  // which game they rank.
  const game = puzzle?.game ?? (m.results.some((r) => 'tiles_left' in r) ? 'shisen' : 'slide');
  const { columns } = VIEWS[game];
  const heads = ['Place', 'Player', 'Time', ...columns.map(([head]) => head), 'Replay'];
  $('race-table').tHead.rows[0].replaceChildren(...heads.map((text) => el('th', { scope: 'col', text })));
  const rows = m.results.map((r) => {
    const replay = r.game
      ? el('a', { href: `/replay/${r.game}`, class: 'replay-link', text: 'Watch', 'aria-label': `Watch ${r.name}'s replay` })
      : el('span', { text: '–' });
    return el('tr', { class: r.player === me ? 'mine' : '', 'data-player': String(r.player) },
      el('td', { text: r.place ? ordinal(r.place) : 'did not finish' }),
      el('th', { scope: 'row', text: r.name }),
      el('td', { text: r.millis == null ? '–' : clock(r.millis) }),
      ...columns.map(([, cell]) => el('td', { text: cell(r) })),
      el('td', {}, replay));
  });
  $('race-table').tBodies[0].replaceChildren(...rows);
  $('race-results').hidden = false;
  const spoken = m.results.map((r) => `${r.place ? ordinal(r.place) : 'unplaced'}, ${r.name}${r.millis == null ? '' : `, ${clock(r.millis)}`}`);
  say(`Results: ${spoken.join('; ')}.`);
  status('The race is over.');
  if (rated) showRatings(rated);
}

// Every racer's new rating once the race is settled, mine first.
async function showRatings(pool) {
  const mineFirst = [...ratedBefore.keys()].sort((a, b) => (b === myHandle()) - (a === myHandle()));
  const after = await Promise.all(mineFirst.map((handle) => ratingAfter(handle, pool, ratedBefore.get(handle))));
  const changes = mineFirst
    .map((handle, i) => after[i] && `${handle === myHandle() ? `you (${handle})` : handle} ${ratingChange(after[i])}`)
    .filter(Boolean);
  if (!changes.length) return;
  const line = $('race-rating');
  line.textContent = `${poolName(pool)} ratings: ${changes.join('; ')}`;
  line.hidden = false;
  say(line.textContent);
}

// --- controls ---------------------------------------------------------------

function setupBoards() {
  for (const v of Object.values(VIEWS)) v.setup();
  window.addEventListener('resize', () => { if (puzzle && seated()) view.render(); });
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
  $('race-rematch').addEventListener('click', () => send({ type: 'rematch' }));
  // The clock runs on the page between the server's progress messages.
  setInterval(() => {
    if (racing()) $('race-time').textContent = clock(sinceStart());
  }, 100);
}

// Which game's board and counters show.
function showGame(game) {
  for (const node of document.querySelectorAll('[data-game]')) node.hidden = node.dataset.game !== game;
  $('race-board').hidden = game !== 'slide';
  $('race-shisen').hidden = game !== 'shisen';
}

// What the views read of the room, and do through it.
const race = {
  get puzzle() { return puzzle; },
  get mine() { return mine; },
  get me() { return me; },
  seated, racing, send, status, sinceStart, nameOf, card,
};
const VIEWS = { slide: slideRace(race), shisen: shisenRace(race) };
let view = VIEWS.slide; // the game of the round under way

a11y.init();
setupControls();
setupBoards();
connect();
followArena();
