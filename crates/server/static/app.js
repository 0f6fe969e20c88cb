// The app shell: pages by URL hash, the account area.
import { get, post, el } from './api.js';
import { showRecords, showDaily } from './records.js';
import * as slide from './slide.js';
import * as shisen from './shisen.js';
import * as a11y from './a11y.js';
import { DISPLAYS } from './rules.js';
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
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.page === page);
  if (page === 'records') {
    showRecordsPage();
    return;
  }
  if (!started[page] || params.has('seed') || params.has('daily') || params.has('size')) {
    started[page] = true;
    pages[page].start(params);
  }
}

// The account area. A change of account tells the pages to show the
// records again: a sign-in moves this browser's guest results to it.
const $ = (id) => document.getElementById(id);

// Errors stay until the next try; news goes after a few seconds, to keep
// the header on one line.
let messageTimer = null;
function accountMessage(text, kind = '') {
  clearTimeout(messageTimer);
  $('account-message').textContent = text;
  $('account-message').className = `account-message ${kind}`;
  if (text && kind !== 'error') messageTimer = setTimeout(() => accountMessage(''), 6000);
}

function showAccount(account) {
  $('account-guest').hidden = account !== null;
  $('account-user').hidden = account === null;
  $('account-name').textContent = account ? account.handle : '';
  $('account-profile').href = account ? `/u/${encodeURIComponent(account.handle)}` : '/';
  if (account) $('account-guest').open = false;
}

// Signed in with an operator's one-time password, nothing else works until
// the player chooses their own: a modal prompt asks for it at once (focus
// moves into it), filled with the one-time password when it was just typed.
function askForNewPassword(account, oneTime = '') {
  const dialog = $('new-password');
  if (!account || !account.must_change_password) {
    if (dialog.open) dialog.close();
    return;
  }
  $('new-password-current').value = oneTime;
  $('new-password-new').value = '';
  $('new-password-message').textContent = '';
  if (!dialog.open) dialog.showModal();
  (oneTime ? $('new-password-new') : $('new-password-current')).focus();
}

async function setNewPassword(event) {
  event.preventDefault();
  const save = $('new-password-save');
  save.disabled = true;
  try {
    await post('/api/account/password', {
      current: $('new-password-current').value,
      new: $('new-password-new').value,
    });
    $('new-password-current').value = '';
    $('new-password-new').value = '';
    $('new-password').close();
    accountMessage('Your password is set. Your results here are now in your account.');
    accountChanged(await get('/api/account'));
  } catch (e) {
    $('new-password-message').textContent = e.message;
    $('new-password-new').focus();
  } finally {
    save.disabled = false;
  }
}

function setupNewPassword() {
  $('new-password-form').addEventListener('submit', setNewPassword);
  $('new-password-logout').addEventListener('click', () => signOut(false));
  // Escape does not dismiss it: the account can do nothing else until the
  // change, and "Sign out" is the way out.
  $('new-password').addEventListener('cancel', (e) => e.preventDefault());
}

function accountChanged(account, oneTime = '') {
  showAccount(account);
  askForNewPassword(account, oneTime);
  window.dispatchEvent(new CustomEvent('tessera:account', { detail: account }));
  if (route()[0] === 'records') showRecordsPage();
}

async function signIn(event) {
  event.preventDefault();
  const action = event.submitter && event.submitter.value === 'signup' ? 'signup' : 'login';
  const buttons = document.querySelectorAll('#account-form button');
  for (const b of buttons) b.disabled = true;
  accountMessage(action === 'signup' ? 'Signing up…' : 'Signing in…');
  try {
    const password = $('account-password').value;
    const account = await post(`/api/account/${action}`, {
      handle: $('account-handle').value.trim(),
      password,
    });
    $('account-password').value = '';
    accountMessage(action === 'signup' ? 'Welcome! Your results here are now in your account.' : '');
    accountChanged(account, account.must_change_password ? password : '');
  } catch (e) {
    accountMessage(e.message, 'error');
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

async function signOut(everywhere) {
  try {
    await post(everywhere ? '/api/account/logout-all' : '/api/account/logout');
    accountMessage(everywhere ? 'Signed out on every device.' : 'Signed out.');
    accountChanged(null);
  } catch (e) {
    accountMessage(e.message, 'error');
  }
}

async function setupAccount() {
  $('account-form').addEventListener('submit', signIn);
  $('account-logout').addEventListener('click', () => signOut(false));
  $('account-logout-all').addEventListener('click', () => signOut(true));
  setupNewPassword();
  let account = null;
  try { account = await get('/api/account'); } catch { /* a guest (401), or offline */ }
  showAccount(account);
  askForNewPassword(account);
}

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
  if (variants.length === 0) {
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

a11y.init();
slide.init();
$('slide-race').addEventListener('click', () => openRace('slide', { size: $('slide-size').value, goal: $('slide-goal').value }));
$('shisen-race').addEventListener('click', () => openRace('shisen', shisenRace()));
$('slide-race-rated').addEventListener('click', () => openRace('slide', { size: $('slide-size').value, goal: $('slide-goal').value, rated: true }));
$('shisen-race-rated').addEventListener('click', () => openRace('shisen', { ...shisenRace(), rated: true }));
playRated($('slide-rated'), $('slide-status'), () => slidePool($('slide-size').value, $('slide-goal').value));
playRated($('shisen-rated'), $('shisen-status'), () => 'shisen-18x8');
shisen.init();
setupAccount();
setupRecordsPage();
window.addEventListener('hashchange', show);
show();
