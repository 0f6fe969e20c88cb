// What every page shares for players who do not use a mouse or do not see
// the screen: the colour-scheme toggle, the keys dialog (`?`), polite
// announcements through a live region, and a notice when the server
// cannot be reached.
import { resume } from './outbox.js';

const $ = (id) => document.getElementById(id);

// Says `text` through the live region `id` (role="status", polite). The
// same text twice in a row is still read: the region is emptied first.
export function announce(id, text) {
  const region = $(id);
  if (!region) return;
  if (region.textContent === text) region.textContent = '';
  requestAnimationFrame(() => { region.textContent = text; });
}

const dark = () => document.documentElement.dataset.theme === 'dark'
  || (!document.documentElement.dataset.theme && matchMedia('(prefers-color-scheme: dark)').matches);

function showTheme() {
  const button = $('theme-toggle');
  if (!button) return;
  button.setAttribute('aria-pressed', String(dark()));
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.content = dark() ? '#0b1219' : '#1d2b3a';
}

// The toggle sets the other scheme and remembers it on this device.
function setupTheme() {
  const button = $('theme-toggle');
  if (!button) return;
  button.addEventListener('click', () => {
    const next = dark() ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try { localStorage.setItem('tessera-theme', next); } catch { /* this visit only */ }
    showTheme();
  });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', showTheme);
  showTheme();
}

function setupKeys() {
  const dialog = $('keys');
  if (!dialog) return;
  const open = () => { if (!dialog.open) dialog.showModal(); };
  $('keys-open')?.addEventListener('click', open);
  $('keys-close')?.addEventListener('click', () => dialog.close());
  document.addEventListener('keydown', (e) => {
    const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName);
    if (e.key === '?' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      open();
    }
  });
}

// The page deals, hints and judges on the server: when it cannot be
// reached, say so plainly instead of leaving buttons that do nothing.
function setupOffline() {
  const banner = $('offline');
  if (!banner) return;
  const show = (off) => { banner.hidden = !off; };
  window.addEventListener('offline', () => show(true));
  window.addEventListener('online', () => show(false));
  window.addEventListener('tessera:offline', () => show(true));
  window.addEventListener('tessera:online', () => show(false));
  show(navigator.onLine === false);
}

export function init() {
  setupTheme();
  setupKeys();
  setupOffline();
  // Results kept on this device by an earlier page go out from any page.
  resume();
}
