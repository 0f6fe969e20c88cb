// The arenas, /arenas and /arena/{id}: the list (with a form to make
// one), or one arena's standings and races, read every second. An
// entrant's page says it is there by joining again every few seconds, and
// goes to its race as soon as the arena pairs it; leaving the page (or
// pressing Pause) pauses the entrant.
import { get, post, clock, el } from './api.js';
import * as a11y from './a11y.js';

const $ = (id) => document.getElementById(id);
const READ_EVERY_MS = 1000;
const HERE_EVERY_MS = 3000;
const id = decodeURIComponent(location.pathname.split('/arena/')[1] || '');

function say(text, kind = '') {
  $('arena-status').textContent = text;
  $('arena-status').className = `status ${kind}`.trim();
}

const when = (ms) => new Date(ms).toLocaleString();

// The casual races anyone may join, as the lobby lists them.
async function showLobby() {
  const { rooms } = await get('/api/races');
  const rows = rooms.map((r) => el('tr', {},
    el('td', {}, el('a', { href: r.url, text: r.game.replace(':', ' ') })),
    el('td', { text: String(r.players) }),
    el('td', { text: new Date(r.opened_at).toLocaleTimeString() })));
  $('arena-lobby').hidden = false;
  $('arena-lobby').replaceChildren(el('table', { class: 'records' },
    el('caption', { text: rooms.length ? 'Open races anyone may join' : 'No open race to join now: open one with "Race a friend"' }),
    el('thead', {}, el('tr', {}, ...['Race', 'Players', 'Opened'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows)));
}

async function showList() {
  await showLobby();
  $('arena-list').hidden = false;
  $('arena-make').hidden = false;
  const { arenas } = await get('/api/arenas');
  const now = Date.now();
  const rows = arenas.map((a) => el('tr', {},
    el('td', {}, el('a', { href: a.url, text: a.pool })),
    el('td', { text: when(a.starts) }),
    el('td', { text: `${Math.round((a.ends - a.starts) / 60000)} min` }),
    el('td', { text: now < a.starts ? 'to come' : 'running' })));
  $('arena-list').replaceChildren(el('table', { class: 'records' },
    el('caption', { text: 'Arenas to come and running' }),
    el('thead', {}, el('tr', {}, ...['Pool', 'Starts', 'Length', 'State'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows)));
  $('arena-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const made = await post('/api/arenas', { pool: $('arena-pool').value, minutes: Number($('arena-minutes').value) });
      location.assign(made.url);
    } catch (err) {
      say(err.status === 401 ? 'Sign in on the game page to make an arena.' : `Cannot make the arena: ${err.message}`, 'error');
    }
  });
}

let here = false;
let hereTimer = null;

async function beHere() {
  try {
    await post(`/api/arenas/${encodeURIComponent(id)}/join`);
    here = true;
    $('arena-join').textContent = 'Pause';
    hereTimer = setTimeout(beHere, HERE_EVERY_MS);
  } catch (e) {
    here = false;
    say(e.status === 401 ? 'Sign in on the game page to join: arenas are rated.' : `Cannot join: ${e.message}`, 'error');
  }
}

async function pause() {
  clearTimeout(hereTimer);
  here = false;
  $('arena-join').textContent = 'Join';
  await post(`/api/arenas/${encodeURIComponent(id)}/pause`).catch(() => {});
  say('Paused: you keep your points, and are not paired until you join again.');
}

function standings(lines) {
  const rows = lines.map((s) => el('tr', {},
    el('td', { text: String(s.rank) }),
    el('td', {}, el('a', { href: `/u/${encodeURIComponent(s.handle)}`, text: s.handle })),
    el('td', { text: `${s.points}${s.on_fire ? ' 🔥' : ''}` }),
    el('td', { text: `${s.wins} / ${s.races}` }),
    el('td', { text: s.presence })));
  return el('table', { class: 'records' },
    el('caption', { text: 'Standings' }),
    el('thead', {}, el('tr', {}, ...['Rank', 'Player', 'Points', 'Won / raced', 'Now'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows));
}

function races(lines) {
  const rows = lines.map((r) => el('tr', {},
    el('td', { text: new Date(r.paired_at).toLocaleTimeString() }),
    el('td', {}, el('a', { href: r.url, text: r.racers.join(' – ') })),
    el('td', { text: r.points ? r.points.join(' – ') : r.aborted ? 'aborted' : 'racing' })));
  return el('table', { class: 'records' },
    el('caption', { text: 'Races' }),
    el('thead', {}, el('tr', {}, ...['Paired', 'Racers', 'Points'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows));
}

async function showOne() {
  $('arena-one').hidden = false;
  try {
    const arena = await get(`/api/arenas/${encodeURIComponent(id)}`);
    $('arena-title').textContent = `Arena: ${arena.pool}`;
    const left = arena.ends - Date.now();
    $('arena-when').textContent = arena.state === 'upcoming'
      ? `Starts ${when(arena.starts)}.`
      : arena.state === 'running' ? `Running: ${clock(Math.max(0, left), false)} left.` : `Finished ${when(arena.ends)}.`;
    $('arena-join').hidden = arena.state === 'finished';
    $('arena-standings').replaceChildren(standings(arena.standings));
    $('arena-races').replaceChildren(races(arena.races));
    if (arena.my_race && here) {
      $('arena-race').href = arena.my_race;
      $('arena-race').hidden = false;
      say('Paired: going to your race…');
      location.assign(`${arena.my_race}?arena=${encodeURIComponent(id)}`);
      return;
    }
    if (arena.state !== 'finished') setTimeout(showOne, READ_EVERY_MS);
  } catch (e) {
    say(`Cannot read the arena: ${e.message}`, 'error');
  }
}

a11y.init();
if (id) {
  $('arena-join').addEventListener('click', () => (here ? pause() : beHere()));
  // Back from a race (the race page kept the entrant in): still here.
  if (document.referrer.includes('/race/')) beHere();
  showOne();
} else {
  showList().catch((e) => say(`Cannot read the arenas: ${e.message}`, 'error'));
}
