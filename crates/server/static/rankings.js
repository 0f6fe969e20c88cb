// The rankings, /rankings: players by power over the core categories,
// each with their tier; the signed-in player's own standing first, with
// what the next tier takes in each category; then the rating
// leaderboards (ratings.js).
import { get, clock, el } from './api.js';
import { leaderboard } from './ratings.js';
import * as a11y from './a11y.js';

const $ = (id) => document.getElementById(id);
const PAGE = 50;
const fmt = (ms) => (ms == null ? '–' : clock(ms));

// A flag from an ISO 3166-1 alpha-2 code: two regional indicator letters.
// The code is its accessible name (flags are read inconsistently).
function flag(code) {
  if (!code) return '';
  const letters = [...code.toUpperCase()].map((c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65));
  return el('span', { class: 'flag', role: 'img', 'aria-label': code, text: letters.join('') });
}

function playerCell(p) {
  const link = el('a', { href: `/u/${encodeURIComponent(p.handle)}`, text: p.handle });
  return el('td', {}, flag(p.country), ' ', link);
}

function table(players) {
  const rows = players.map((p) => el('tr', {},
    el('td', { text: String(p.rank) }),
    playerCell(p),
    el('td', { text: p.tier }),
    el('td', { text: String(p.power) }),
    el('td', { text: String(p.categories.filter((c) => c.millis != null).length) })));
  return el('table', { class: 'records' },
    el('caption', { text: 'Players by power tier, then power' }),
    el('thead', {}, el('tr', {}, ...['Rank', 'Player', 'Tier', 'Power', 'Categories played'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows));
}

// The player's own standing: each category's best, its tier and the time
// the next tier asks — "how far am I from the next tier".
function mine(me) {
  const next = me.next ? `${me.next.needs} more power for ${me.next.name}` : 'the top tier';
  const rows = me.categories.map((c) => el('tr', {},
    el('th', { scope: 'row', text: c.category }),
    el('td', { text: fmt(c.millis) }),
    el('td', { text: c.tier ?? '–' }),
    el('td', { text: c.next ? `${c.next.name}: ${fmt(c.next.needs)}` : '–' })));
  return [
    el('h3', { text: `You: rank ${me.rank}, ${me.tier}, power ${me.power} (${next})` }),
    el('table', { class: 'records' },
      el('caption', { text: 'Your best in each core category' }),
      el('thead', {}, el('tr', {}, ...['Category', 'Best', 'Tier', 'Next tier'].map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', {}, ...rows)),
  ];
}

async function show(offset) {
  const status = $('rankings-status');
  status.textContent = 'Loading…';
  let data;
  try {
    data = await get(`/api/rankings?offset=${offset}&limit=${PAGE}`);
  } catch (e) {
    status.textContent = `The rankings could not be loaded: ${e.message}`;
    return;
  }
  status.textContent = data.players.length === 0 && offset === 0 ? 'Nobody is ranked yet: solve a core category (4x4 ao5, 5x5 single, …) while signed in.' : '';
  $('rankings-body').replaceChildren(data.players.length ? table(data.players) : '');
  const me = $('rankings-me');
  me.hidden = !data.me;
  if (data.me) me.replaceChildren(...mine(data.me));
  $('rankings-source').replaceChildren(...sourceWords(data.source));
  const prev = $('rankings-prev');
  const next = $('rankings-next');
  prev.hidden = offset === 0;
  next.hidden = data.players.length < PAGE;
  prev.onclick = () => show(Math.max(0, offset - PAGE));
  next.onclick = () => show(offset + PAGE);
}

// Where the tiers come from, in the player's words: the source's name and
// its link, without the tables' file and variable names.
function sourceWords(source) {
  const m = /^([^(:]+?)\s*\((https?:[^)\s]+)\)/.exec(source ?? '');
  if (!m) return ['The tiers and their power follow this site’s own tables.'];
  return ['The tiers, and the power each brings, are those of ', el('a', { href: m[2], text: m[1] }),
    ', so a tier here means what it does there.'];
}

a11y.init();
show(0);
leaderboard(document.getElementById('ratings-board'));
