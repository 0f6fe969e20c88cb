// Submissions kept on this device until the server answers them, so a
// finished game is never lost to a dropped connection, a restarting
// server or a closed tab. A submission is written to IndexedDB before it
// is sent and taken out once the server has answered: its verdict, or a
// refusal that sending again would not change (a 4xx). Without an answer
// (no network, a 5xx, the server gone) it is sent again with backoff,
// here and on the next load of any page (`resume`, from a11y.js), until
// one comes. The server answers the same submission the same way and
// records it once (crates/server/src/answers.rs), so sending it twice
// never records it twice.
import { post, el } from './api.js';

const DB = 'tessera-outbox';
const KEPT = 'submissions';
const FIRST_WAIT = 1000;
const LONGEST_WAIT = 30000;

// The database, or null where the browser keeps none (the submission is
// then only retried while the page is open).
let opened = null;
function db() {
  opened ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(KEPT, { keyPath: 'key', autoIncrement: true });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opened;
}

// Runs `work(store)` in a transaction on the kept submissions; its
// request's result, or null when nothing could be kept.
async function kept(mode, work) {
  const database = await db();
  if (!database) return null;
  return new Promise((resolve) => {
    try {
      // Settled once the transaction is: a submission is on the disk
      // before it is sent (strict: flushed, not only handed to the OS).
      const transaction = database.transaction(KEPT, mode, { durability: 'strict' });
      const request = work(transaction.objectStore(KEPT));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => resolve(null);
      transaction.onabort = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

const keep = (entry) => kept('readwrite', (store) => store.add(entry));
const drop = (key) => (key == null ? null : kept('readwrite', (store) => store.delete(key)));
const all = async () => (await kept('readonly', (store) => store.getAll())) ?? [];

// Whether a failure may pass if the same submission is sent again: no
// answer at all, the server failing or busy.
const passing = (error) => !error.status || error.status >= 500 || error.status === 408 || error.status === 429;

// Waits `ms`, or less when the browser says it is online again.
function pause(ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); window.removeEventListener('online', done); resolve(); };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
  });
}

// The notice of kept submissions: a line each, on every page.
function line(entry) {
  let notice = document.getElementById('outbox');
  if (!notice) {
    notice = el('div', { id: 'outbox', class: 'outbox', role: 'status' });
    const offline = document.getElementById('offline');
    if (offline) offline.after(notice); else document.body.prepend(notice);
  }
  const id = `outbox-${entry.key ?? entry.sent}`;
  let p = document.getElementById(id);
  if (!p) { p = el('p', { id }); notice.append(p); }
  return p;
}

function say(entry, text, kind, link) {
  const p = line(entry);
  p.className = kind;
  p.replaceChildren(text);
  if (link) p.append(' ', el('a', { href: link, text: 'Watch the replay' }));
}

const sending = new Set();

// Sends a kept entry until it is answered. When a try gets no answer,
// `onKept(text)` may say so where the player looks (true when it did),
// else the notice does; an entry sent again (`told`, from an earlier
// page) is said to be recorded or refused in the notice.
async function deliver(entry, onKept, told = false) {
  sending.add(entry.key);
  let wait = FIRST_WAIT;
  let failed = false;
  try {
    for (;;) {
      try {
        const answer = await post(entry.url, entry.body);
        await drop(entry.key);
        if ((told || failed) && answer?.solved === false) {
          say(entry, `Your ${entry.what}, kept on this device, reached the server, which does not see it as solved.`, 'error');
        } else if (told || failed) {
          const replay = answer?.solved && answer.game ? `/replay/${answer.game}` : null;
          say(entry, `Your ${entry.what}, kept on this device, is recorded.`, 'good', replay);
        }
        return answer;
      } catch (error) {
        if (!passing(error)) {
          await drop(entry.key);
          if (told || failed) say(entry, `Your ${entry.what}, kept on this device, was refused: ${error.message}`, 'error');
          throw error;
        }
        if (!failed) {
          failed = true;
          const where = entry.key == null ? 'while this page is open' : 'from this device, even if the page is closed,';
          const text = `Your ${entry.what} is kept: the server did not answer (${error.message}). It is sent again ${where} until it is recorded.`;
          if (!onKept?.(text)) say(entry, text, 'warn');
        }
        await pause(wait);
        wait = Math.min(wait * 2, LONGEST_WAIT);
      }
    }
  } finally {
    sending.delete(entry.key);
  }
}

// Sends one entry at a time across this browser's tabs where it can say
// so (Web Locks): a tab that finds another sending it leaves it be.
function alone(entry, work) {
  if (entry.key == null || !navigator.locks) return work();
  return navigator.locks.request(`${DB}-${entry.key}`, { ifAvailable: true }, (lock) => (lock ? work() : null));
}

// Submits `body` to `url`, kept on this device until the server answers:
// resolves with the answer however many tries it takes, rejects with a
// refusal (a 4xx). `what` names the submission for the player ("4×4
// solve"); `onKept(text)` is given what to say when a try got no answer
// and the submission waits to be sent again, and returns true if it
// said it.
export async function submit(url, body, { what = 'result', onKept } = {}) {
  const entry = { url, body, what, sent: Date.now() };
  entry.key = (await keep(entry)) ?? undefined;
  return alone(entry, () => deliver(entry, onKept));
}

// Sends again what earlier pages kept and could not send; called once a
// page.
export async function resume() {
  for (const entry of await all()) {
    if (sending.has(entry.key)) continue;
    alone(entry, () => {
      say(entry, `Sending your ${entry.what}, kept on this device…`, 'warn');
      return deliver(entry, null, true).catch(() => {});
    });
  }
}
