// Ratings: a player's rating in each pool with its history (the profile,
// /u/{handle}) and each pool's leaderboard of settled ratings (the
// rankings page, /rankings). What they mean is docs/ratings.md.
import { get, el } from './api.js';
import { stepGraph } from './graph.js';

const POOLS = [
  ['slide-3x3', 'Sliding 3x3'],
  ['slide-4x4', 'Sliding 4x4'],
  ['slide-5x5', 'Sliding 5x5'],
  ['shisen-18x8', 'Shisen-Sho 18x8'],
];
const poolName = (pool) => (POOLS.find(([p]) => p === pool) || [pool, pool])[1];
const PAGE = 50;

// A rating as lichess shows it: rounded, with a question mark while it is
// provisional.
const shown = (r) => `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;

function historyGraph(r) {
  const h = r.history;
  const last = h[h.length - 1];
  const said = h.length === 1
    ? `one rated race, from ${Math.round(h[0].before)} to ${Math.round(last.rating)}`
    : `${h.length} rated races, from ${Math.round(h[0].before)} to ${Math.round(last.rating)}`;
  return stepGraph(h, {
    at: (p) => p.at,
    value: (p) => p.rating,
    filled: (p) => p.rating >= p.before,
    label: `rating history in ${poolName(r.pool)}: ${said}`,
  });
}

// The profile's ratings: one row a pool, with its history plotted.
export function ratingsTable(ratings) {
  const t = el('table', { class: 'records' });
  t.append(el('caption', { text: 'Ratings in rated races (a filled dot was a gain; ? is provisional)' }));
  t.append(el('thead', {}, el('tr', {}, ...['pool', 'rating', 'deviation', 'races', 'history'].map((h) => el('th', { scope: 'col', text: h })))));
  t.append(el('tbody', {}, ...ratings.map((r) => el('tr', {},
    el('td', { text: poolName(r.pool) }),
    el('td', { text: shown(r) }),
    el('td', { text: `±${Math.round(r.rd)}` }),
    el('td', { text: String(r.games) }),
    el('td', {}, r.history.length ? historyGraph(r) : '')))));
  return el('div', { class: 'records-scroll' }, t);
}

// The leaderboard of one pool into `box`, from `offset`, with a choice of
// pool and pages.
export async function leaderboard(box, pool = POOLS[0][0], offset = 0) {
  const picker = el('div', { class: 'pager', role: 'group', 'aria-label': 'Rating pool' },
    ...POOLS.map(([p, name]) => {
      const b = el('button', { type: 'button', text: name, 'aria-pressed': String(p === pool) });
      b.onclick = () => leaderboard(box, p, 0);
      return b;
    }));
  const status = el('p', { class: 'status', role: 'status', text: 'Loading…' });
  box.replaceChildren(el('h3', { text: 'Ratings' }), picker, status);
  let data;
  try {
    data = await get(`/api/ratings/${pool}?offset=${offset}&limit=${PAGE}`);
  } catch (e) {
    status.textContent = `The leaderboard could not be loaded: ${e.message}`;
    return;
  }
  status.textContent = data.players.length === 0 && offset === 0
    ? `No settled rating in ${poolName(pool)} yet: a rating is listed once its deviation is below 110 (it narrows with each rated race).`
    : '';
  if (data.players.length === 0) return;
  const rows = data.players.map((p) => el('tr', {},
    el('td', { text: String(p.rank) }),
    el('td', {}, el('a', { href: `/u/${encodeURIComponent(p.handle)}`, text: p.handle })),
    el('td', { text: String(Math.round(p.rating)) }),
    el('td', { text: `±${Math.round(p.rd)}` }),
    el('td', { text: String(p.games) })));
  const table = el('table', { class: 'records' },
    el('caption', { text: `${poolName(pool)}: highest ratings` }),
    el('thead', {}, el('tr', {}, ...['Rank', 'Player', 'Rating', 'Deviation', 'Races'].map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows));
  const pages = el('nav', { class: 'pager', 'aria-label': 'More rated players' });
  if (offset > 0) {
    const prev = el('button', { type: 'button', text: 'Higher ratings' });
    prev.onclick = () => leaderboard(box, pool, Math.max(0, offset - PAGE));
    pages.append(prev);
  }
  if (data.players.length === PAGE) {
    const next = el('button', { type: 'button', text: 'More players' });
    next.onclick = () => leaderboard(box, pool, offset + PAGE);
    pages.append(next);
  }
  box.append(el('div', { class: 'records-scroll' }, table), pages);
}

// The player's rating in `pool` now, if they have one.
export async function ratingIn(handle, pool) {
  const profile = await get(`/api/users/${encodeURIComponent(handle)}`);
  return profile.ratings.find((r) => r.pool === pool) || null;
}

// After a rated race: the player's rating once it counts more races than
// `before` (the race is settled a moment after it ends), or null.
export async function ratingAfter(handle, pool, before, tries = 30) {
  for (let i = 0; i < tries; i += 1) {
    const r = await ratingIn(handle, pool).catch(() => null);
    if (r && r.games > before) return r;
    await new Promise((done) => setTimeout(done, 300));
  }
  return null;
}

// A rating's last change in words: "1662? (+162)".
export function ratingChange(r) {
  const last = r.history[r.history.length - 1];
  const delta = Math.round(last.rating - last.before);
  return `${shown(r)} (${delta >= 0 ? '+' : '−'}${Math.abs(delta)})`;
}

export { poolName, shown as ratingShown };
