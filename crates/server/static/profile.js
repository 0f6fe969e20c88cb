// A player's profile, /u/{handle}: per variant the personal bests,
// averages of 5, 12 and 100, the number of solves and a plot of the latest
// times; its power tier, power and rank, and its ratings in rated races; then the latest results, each with
// its replay. A control and a display chosen show their results and bests
// alone, as the records do; the choice is in the address
// (?control=hover&display=manhattan).
import { get, post, clock, el, asking } from './api.js';
import { flag } from './records.js';
import { stepGraph, svg } from './graph.js';
import { poolName, ratingShown, ratingsTable } from './ratings.js';
import { DISPLAYS } from './rules.js';
import * as a11y from './a11y.js';
import { signedIn, signOut } from './account.js';

const $ = (id) => document.getElementById(id);
const fmt = (ms) => (ms == null ? '–' : clock(ms));

// Where the player stands, at the top: power tier, power and rank in the
// rankings, and the rating in each pool raced rated.
function standingLines(p) {
  const s = p.standing;
  const power = s
    ? el('p', { class: 'profile-power' },
      el('strong', { text: s.tier }), ` power tier · power ${s.power} · `,
      el('a', { href: '/rankings', text: `#${s.rank} in the rankings` }),
      s.next ? ` · ${s.next.needs} more power to ${s.next.name}` : '')
    : el('p', { class: 'profile-power', text: 'No power tier yet: it takes a ranked result in a core category of the rankings.' });
  const rated = p.ratings.length
    ? el('p', { class: 'profile-ratings' }, 'Ratings: ',
      ...p.ratings.flatMap((r, i) => [i ? ' · ' : '', el('strong', { text: ratingShown(r) }), ` ${poolName(r.pool)} (${r.games} ${r.games === 1 ? 'race' : 'races'})`]))
    : el('p', { class: 'profile-ratings', text: 'No rating yet: no rated race played.' });
  return [power, rated];
}

// The latest times as a line, oldest on the left; ranked solves are dots,
// unranked ones hollow rings. Its label says what a reader would see.
function plot(v) {
  const figure = el('figure', { class: 'replay-graph profile-plot' });
  const times = v.latest;
  const best = Math.min(...times.map((t) => t.millis));
  const worst = Math.max(...times.map((t) => t.millis));
  const chart = svg('svg', {
    viewBox: '0 0 600 140', role: 'img',
    'aria-label': `times of the last ${times.length} solves of ${v.variant}: from ${fmt(times[0].millis)} to ${fmt(times[times.length - 1].millis)}, fastest ${fmt(best)}, slowest ${fmt(worst)}`,
  });
  const x = (i) => (times.length === 1 ? 300 : 10 + (580 * i) / (times.length - 1));
  const y = (ms) => (worst === best ? 70 : 125 - (110 * (ms - best)) / (worst - best));
  chart.append(svg('polyline', { class: 'tps-line', points: times.map((t, i) => `${x(i)},${y(t.millis)}`).join(' ') }));
  times.forEach((t, i) => chart.append(svg('circle', {
    cx: x(i), cy: y(t.millis), r: 3.5, class: t.ranked ? 'plot-dot' : 'plot-dot unranked',
  })));
  const axis = svg('text', { x: 4, y: 12, class: 'tps-axis' });
  axis.textContent = `slowest ${fmt(worst)}`;
  const floor = svg('text', { x: 4, y: 138, class: 'tps-axis' });
  floor.textContent = `fastest ${fmt(best)}`;
  chart.append(axis, floor);
  figure.append(chart, el('figcaption', { text: `The last ${times.length} ${times.length === 1 ? 'solve' : 'solves'}, oldest first; hollow rings are not ranked.` }));
  return figure;
}

function variantSection(v) {
  const section = el('section', { class: 'profile-variant' });
  const game = v.game === 'slide' ? 'Sliding puzzle' : 'Shisen-Sho';
  section.append(el('h3', { text: `${game} ${v.variant}` }));
  const facts = el('dl', { class: 'personal' });
  for (const [k, value] of [
    ['solves', `${v.solves} (${v.ranked} ranked)`],
    ['best time', fmt(v.best_millis)],
    [v.game === 'slide' ? 'fewest moves' : 'fewest removals', v.best_moves == null ? '–' : String(v.best_moves)],
    ['average of 5', fmt(v.ao5)],
    ['average of 12', fmt(v.ao12)],
    ['average of 100', fmt(v.ao100)],
  ]) facts.append(el('dt', { text: k }), el('dd', { text: value }));
  section.append(facts);
  if (v.latest.length > 0) section.append(plot(v));
  return section;
}

// What a best is of: the category in words.
function category(b) {
  const game = b.game === 'slide' ? 'sliding' : 'Shisen-Sho';
  const parts = [`${game} ${b.variant}`];
  if (b.format !== 'single') parts.push(b.format);
  if (b.display !== 'standard') parts.push(`display ${b.display}`);
  parts.push(b.control ? (b.control === 'mouse' ? 'click' : b.control) : 'any control');
  return parts.join(', ');
}

const kind = (b) => (b.of === 1 ? 'single' : `average of ${b.of}`);

// A best's history, each improvement a dot (filled when it was also the
// world record); its label says the same in words.
function historyGraph(b) {
  const points = b.history;
  const best = points[points.length - 1].millis;
  const first = points[0].millis;
  const day = (p) => new Date(p.finished_at).toISOString().slice(0, 10);
  const said = points.length === 1
    ? `set once, ${clock(best)} on ${day(points[0])}`
    : `${points.length} improvements, from ${clock(first)} on ${day(points[0])} to ${clock(best)} on ${day(points[points.length - 1])}`;
  return stepGraph(points, {
    at: (p) => p.finished_at,
    value: (p) => p.millis,
    filled: (p) => p.world_record,
    label: `history of the ${kind(b)} best: ${said}`,
  });
}

// Every personal best, each with its history.
function bestsTable(bests) {
  const t = el('table', { class: 'records' });
  t.append(el('caption', { text: 'Personal bests (a filled dot was a world record)' }));
  const head = el('tr');
  for (const name of ['category', 'kind', 'best', 'date', 'history', 'replay']) head.append(el('th', { text: name }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const b of bests) {
    const moves = b.moves == null ? '' : ` (${b.moves} moves)`;
    body.append(el('tr', {},
      el('td', { text: category(b) }),
      el('td', { text: kind(b) }),
      el('td', { text: `${clock(b.millis)}${moves}` }),
      el('td', { text: new Date(b.finished_at).toISOString().slice(0, 10) }),
      el('td', {}, historyGraph(b)),
      el('td', {}, el('a', { href: `/replay/${b.game_ids[0]}`, class: 'replay-link', text: '▶ replay' })),
    ));
  }
  if (bests.length === 0) body.append(el('tr', {}, el('td', { colspan: '6', text: 'no ranked results yet' })));
  t.append(body);
  return el('div', { class: 'records-scroll' }, t);
}

function recentTable(recent) {
  const t = el('table', { class: 'records' });
  t.append(el('caption', { text: 'Latest results' }));
  const head = el('tr');
  for (const name of ['game', 'time', 'moves', 'verdict', 'date', 'replay']) head.append(el('th', { text: name }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const r of recent) {
    const row = el('tr');
    row.append(
      el('td', { text: `${r.game === 'slide' ? 'sliding' : 'Shisen-Sho'} ${r.variant}` }),
      el('td', { text: clock(r.millis) }),
      el('td', { text: String(r.moves) }),
      el('td', { text: r.ranked ? 'ranked' : r.reason || 'not ranked' }),
      el('td', { text: new Date(r.finished_at).toISOString().slice(0, 10) }),
      el('td', {}, el('a', { href: `/replay/${r.game_id}`, class: 'replay-link', text: '▶ replay' })),
    );
    body.append(row);
  }
  if (recent.length === 0) body.append(el('tr', {}, el('td', { colspan: '6', text: 'no results yet' })));
  t.append(body);
  return el('div', { class: 'records-scroll' }, t);
}

let loaded = null;

// The control and display chosen, as the address's query carries them.
function chosen() {
  const query = new URLSearchParams();
  for (const name of ['control', 'display']) {
    const value = $(`profile-${name}`).value;
    if (value) query.set(name, value);
  }
  return query.toString();
}

// The choosers from the address, then kept in it as they change.
function setupFilters() {
  const displays = $('profile-display');
  for (const [value, text] of DISPLAYS) displays.append(el('option', { value, text }));
  const asked = new URLSearchParams(location.search);
  for (const name of ['control', 'display']) {
    const select = $(`profile-${name}`);
    const value = asked.get(name) ?? '';
    if ([...select.options].some((o) => o.value === value)) select.value = value;
    select.addEventListener('change', () => {
      const query = chosen();
      history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}`);
      load();
    });
  }
}

async function load() {
  const handle = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  const query = chosen();
  const latest = asking('profile');
  let p;
  try {
    p = await get(`/api/users/${encodeURIComponent(handle)}${query ? `?${query}` : ''}`);
  } catch (e) {
    if (!latest()) return;
    $('profile-title').textContent = handle;
    $('profile-status').textContent = e.message;
    $('profile-status').className = 'status error';
    return;
  }
  if (!latest()) return;
  $('profile-status').textContent = '';
  $('profile-status').className = 'status';
  loaded = p;
  document.title = `tessera — ${p.handle}`;
  $('profile-title').replaceChildren(...(p.country ? [flag(p.country), ' '] : []), p.handle);
  const since = new Date(p.created_at).toISOString().slice(0, 10);
  const only = [p.control && (p.control === 'mouse' ? 'click' : p.control), p.display && `display ${p.display}`].filter(Boolean);
  $('profile-info').textContent = `${p.solves} ${p.solves === 1 ? 'solve' : 'solves'}${only.length ? ` (${only.join(', ')})` : ''} · playing since ${since}`;
  $('profile-standing').replaceChildren(...standingLines(p));
  $('profile-variants').replaceChildren(...p.variants.map(variantSection));
  const rated = p.ratings.length ? [ratingsTable(p.ratings)] : [];
  $('profile-recent').replaceChildren(...rated, bestsTable(p.bests), recentTable(p.recent));
}

// On the signed-in player's own profile: the country shown beside their
// name (the server checks the code; its message says what it accepts).
// Signing out on every device is offered here too.
async function countryForm(p) {
  const me = await signedIn;
  if (!me || me.handle !== p.handle) return;
  $('profile-own').hidden = false;
  $('profile-logout-all').addEventListener('click', async () => {
    await signOut(true);
    $('profile-own').hidden = true;
    $('profile-country-form').hidden = true;
  });
  const form = $('profile-country-form');
  const input = $('profile-country');
  input.value = p.country ?? '';
  form.hidden = false;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const code = input.value.trim().toUpperCase();
    try {
      const r = await post('/api/account/country', { country: code || null });
      $('profile-country-said').textContent = r.country ? `Saved: ${r.country}.` : 'Saved: no country.';
      $('profile-title').replaceChildren(...(r.country ? [flag(r.country), ' '] : []), p.handle);
    } catch (err) {
      $('profile-country-said').textContent = err.message;
    }
  });
}

a11y.init();
setupFilters();
load().then(() => { if (loaded) countryForm(loaded); });
