// The app shell: pages by URL hash, the player's display name.
import { get, post, el } from './api.js';
import { showRecords } from './records.js';
import * as slide from './slide.js';
import * as shisen from './shisen.js';

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
  if (!started[page] || params.has('seed') || params.has('daily')) {
    started[page] = true;
    pages[page].start(params);
  }
}

async function setupName() {
  const input = document.getElementById('player-name');
  try { input.value = (await get('/api/me')).name || ''; } catch { /* offline: keep empty */ }
  input.addEventListener('change', async () => {
    try {
      const r = await post('/api/me/name', { name: input.value });
      input.value = r.name || '';
      input.classList.remove('invalid');
    } catch (e) {
      input.classList.add('invalid');
      input.title = e.message;
    }
  });
}

// The records page: a menu of the variants that have records.
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
  showRecords(body, game.value, variant.value);
}

function setupRecordsPage() {
  document.getElementById('records-game').addEventListener('change', showRecordsPage);
  document.getElementById('records-variant').addEventListener('change', () =>
    showRecords(document.getElementById('records-body'),
      document.getElementById('records-game').value, document.getElementById('records-variant').value));
}

slide.init();
shisen.init();
setupName();
setupRecordsPage();
window.addEventListener('hashchange', show);
show();
