// The app shell: pages by URL hash.
import { get, post, el } from './api.js';
import { showRecords, showDaily } from './records.js';
import * as slide from './slide.js';
import * as shisen from './shisen.js';
import * as a11y from './a11y.js';
import { DISPLAYS, aboutDisplay } from './rules.js';
import { MARATHONS } from './slide-formats.js';
import { playRated, slidePool } from './quick-match.js';

const pages = { slide, shisen };
let started = {};

// `#slide&size=4x4&seed=7` → ['slide', URLSearchParams]
function route() {
  const hash = location.hash.slice(1) || 'slide';
  const [page, ...rest] = hash.split('&');
  return [page in pages || page === 'records' ? page : 'slide', new URLSearchParams(rest.join('&'))];
}

function show() {
  const [page, params] = route();
  for (const section of document.querySelectorAll('.page')) section.hidden = section.id !== `page-${page}`;
  for (const a of document.querySelectorAll('header nav a')) {
    const here = a.dataset.page === page;
    a.classList.toggle('active', here);
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (page === 'records') {
    showRecordsPage();
    return;
  }
  if (!started[page] || params.has('seed') || params.has('daily') || params.has('size')) {
    started[page] = true;
    pages[page].start(params);
  }
}

const $ = (id) => document.getElementById(id);

// The records page: a menu of the variants that have records, and of
// the formats and controls they rank apart.
async function showRecordsPage() {
  const game = document.getElementById('records-game');
  const variant = document.getElementById('records-variant');
  const body = document.getElementById('records-body');
  let variants = [];
  try { variants = (await get(`/api/records/variants?game=${game.value}`)).variants; } catch { /* shown below */ }
  const keep = variant.value;
  variant.replaceChildren(...variants.map((v) => el('option', { value: v, text: v })));
  if (variants.includes(keep)) variant.value = keep;
  // With no records there is nothing to choose: the menus go until there is.
  const none = variants.length === 0;
  for (const id of ['records-variant', 'records-format', 'records-control', 'records-display']) $(id).closest('label').hidden = none;
  if (none) {
    $('records-display-about').hidden = true;
    body.replaceChildren(el('p', { text: 'No records yet: solve a puzzle!' }));
    return;
  }
  showRecordsTables();
}

// The formats a sliding-puzzle variant ranks: a relay-N is filed under its
// last size, so only a square board has one, ending at its size; slidysim's
// relays are filed under the size they start at.
function recordFormats(game, variant) {
  if (game !== 'slide') return ['single'];
  const marathons = MARATHONS.map((n) => `marathon-${n}`);
  const formats = ['single', ...marathons, 'bld'];
  const square = /^(\d+)x\1-/.exec(variant);
  if (square && Number(square[1]) >= 4) formats.push(`relay-${square[1]}`);
  const size = /^(\d+)x(\d+)-/.exec(variant);
  if (size) {
    const [w, h] = [Number(size[1]), Number(size[2])];
    if (w === h && w >= 3) formats.push('2-n-relay');
    if (h >= 3) formats.push('height-relay');
    if (w >= 3) formats.push('width-relay');
    if (w >= 3 || h >= 3) formats.push('everything-relay');
  }
  return formats;
}

// The records of the chosen variant, format and control.
function showRecordsTables() {
  const game = document.getElementById('records-game').value;
  const variant = document.getElementById('records-variant').value;
  const format = document.getElementById('records-format');
  const keep = format.value;
  const formats = recordFormats(game, variant);
  format.replaceChildren(...formats.map((f) => el('option', { value: f, text: f })));
  format.value = formats.includes(keep) ? keep : 'single';
  document.getElementById('records-format-label').hidden = game !== 'slide';
  document.getElementById('records-display-label').hidden = game !== 'slide';
  const control = document.getElementById('records-control').value;
  const display = game === 'slide' ? document.getElementById('records-display').value : 'standard';
  aboutDisplay($('records-display-about'), display);
  showRecords(document.getElementById('records-body'), game, variant, format.value, control || null, display);
  showDailyBoard(document.getElementById('daily-date').value || null);
}

// The daily challenge's board of the chosen variant and format, for
// `date` (today when null); the day picker and links follow the board.
async function showDailyBoard(date) {
  const game = document.getElementById('records-game').value;
  const variant = document.getElementById('records-variant').value;
  const format = document.getElementById('records-format').value || 'single';
  if (!variant) return;
  const board = await showDaily(document.getElementById('daily-body'), game, variant, format, date);
  if (!board) return;
  const picker = document.getElementById('daily-date');
  picker.value = board.date;
  if (board.today) picker.max = board.date;
  document.getElementById('daily-previous').disabled = !board.previous;
  document.getElementById('daily-next').disabled = !board.next;
  document.getElementById('daily-previous').dataset.date = board.previous || '';
  document.getElementById('daily-next').dataset.date = board.next || '';
  // Today's puzzle is played as the daily one; a past day's from its seed.
  const play = document.getElementById('daily-play');
  const [size, ...goal] = variant.split('-');
  const where = game === 'slide' ? `slide&size=${size}&goal=${goal.join('-')}` : 'shisen';
  play.href = board.today ? `#${where}&daily` : `#${where}&seed=${board.seed}`;
  play.textContent = board.today ? "Play today's puzzle" : `Practise ${board.date}'s puzzle`;
  play.hidden = format !== 'single';
}

function setupRecordsPage() {
  document.getElementById('records-game').addEventListener('change', showRecordsPage);
  const displays = document.getElementById('records-display');
  for (const [value, text] of DISPLAYS) displays.append(el('option', { value, text }));
  for (const id of ['records-variant', 'records-format', 'records-control', 'records-display']) {
    document.getElementById(id).addEventListener('change', showRecordsTables);
  }
  document.getElementById('daily-date').addEventListener('change', (e) => showDailyBoard(e.target.value || null));
  for (const id of ['daily-previous', 'daily-next']) {
    document.getElementById(id).addEventListener('click', (e) => showDailyBoard(e.target.dataset.date));
  }
}

// "Race a friend": opens a race room for the chosen game (the sliding
// puzzle's size and goal, or Shisen-Sho's board and rules), and goes to
// its page, whose link the player shares. "Rated race" opens a rated one
// (docs/ratings.md): the server refuses a game no pool rates, and says
// which are.
async function openRace(game, body) {
  const button = $(`${game}-race`);
  button.disabled = true;
  try {
    const room = await post('/api/races', { game, ...body });
    location.assign(room.url);
  } catch (e) {
    $(`${game}-status`).textContent = `Cannot open a race: ${e.message}`;
    $(`${game}-status`).className = 'status error';
    button.disabled = false;
  }
}

function shisenRace() {
  const preset = $('shisen-preset').value;
  const board = preset === 'custom' ? { size: $('shisen-custom').value.trim() } : { preset };
  return {
    ...board,
    gravity: $('shisen-gravity').checked,
    chinese: $('shisen-chinese').checked,
    solvable: $('shisen-solvable').checked,
  };
}

// Full screen: the sliding puzzle's board and figures alone, the board as
// large as the screen lets it be (where the browser can).
function setupFullScreen() {
  const button = $('slide-full');
  button.hidden = !document.fullscreenEnabled;
  button.addEventListener('click', () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else $('page-slide').requestFullscreen().catch(() => {});
  });
  document.addEventListener('fullscreenchange', () => button.setAttribute('aria-pressed', String(Boolean(document.fullscreenElement))));
}

a11y.init();
slide.init();
setupFullScreen();
$('slide-race').addEventListener('click', () => openRace('slide', { size: $('slide-size').value, goal: $('slide-goal').value }));
$('shisen-race').addEventListener('click', () => openRace('shisen', shisenRace()));
$('slide-race-rated').addEventListener('click', () => openRace('slide', { size: $('slide-size').value, goal: $('slide-goal').value, rated: true }));
$('shisen-race-rated').addEventListener('click', () => openRace('shisen', { ...shisenRace(), rated: true }));
playRated($('slide-rated'), $('slide-status'), () => slidePool($('slide-size').value, $('slide-goal').value));
playRated($('shisen-rated'), $('shisen-status'), () => 'shisen-18x8');
shisen.init();
setupRecordsPage();
// A sign-in moves this browser's results to the account: the records again.
window.addEventListener('tessera:account', () => { if (route()[0] === 'records') showRecordsPage(); });
window.addEventListener('hashchange', show);
show();
