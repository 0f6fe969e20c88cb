// Starts tessera on an ephemeral port with a fresh database and a headless
// Chromium with a fresh profile; stops both afterwards.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..', '..');
// Screenshots go to e2e/artifacts/ (ignored by git) so a test run leaves the
// tree clean; UPDATE_SCREENSHOTS=1 refreshes the README's in docs/screenshots/.
export const screenshots = process.env.UPDATE_SCREENSHOTS
  ? join(repo, 'docs', 'screenshots')
  : join(repo, 'e2e', 'artifacts');
mkdirSync(screenshots, { recursive: true });

// The tessera binary under test.
export const tesseraBin = () => process.env.TESSERA_BIN || join(repo, 'target', 'release', 'tessera');

// `db`: a database URL instead of a fresh SQLite file; `extra`: more
// arguments to `serve`; `addr`: where to listen (an ephemeral port unless
// said).
export async function startServer({ db, extra = [], addr = '127.0.0.1:0' } = {}) {
  const bin = tesseraBin();
  const dir = mkdtempSync(join(tmpdir(), 'tessera-e2e-'));
  const database = db || join(dir, 'e2e.db');
  // The tests follow hints at machine speed and open many races: lift the
  // per-client limits meant for the public (tests/it/ops.rs and
  // tests/it/races.rs check them).
  const args = ['serve', '--addr', addr, '--db', database, '--solver-rate', '1000', '--race-rate', '1000', ...extra];
  const child = spawn(bin, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    // The small tables only: the 7-8 set would build for minutes in the
    // background of every fresh cache.
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn', TESSERA_TABLES: 'small' },
  });
  const url = await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), 15000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/[0-9.:]+\//);
      if (m) { clearTimeout(timer); ok(m[0]); }
    });
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${out}`)));
  });
  return {
    url,
    // The database, for what an operator runs beside the server.
    db: database,
    stop() { child.kill('SIGINT'); rmSync(dir, { recursive: true, force: true }); },
    // Kills the server at once, as a crash or a power cut would (no
    // shutdown), keeping its database for `restartServer`.
    kill() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return gone;
    },
  };
}

// Starts `server` again after `kill`: the same address and database.
export async function restartServer(server) {
  const again = await startServer({ db: server.db, addr: new URL(server.url).host });
  const stop = again.stop;
  again.stop = () => { stop(); server.stop(); };
  return again;
}

// `options` override the context's: a phone is
// `{ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }`.
export async function startBrowser(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'tessera-chromium-'));
  // A persistent context is how Playwright passes --user-data-dir: a fresh
  // profile directory per run.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    ...options,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // A page fulfilled from the tree has no address of its own, and
      // Chromium would block its WebSockets to the local server.
      ...(process.env.E2E_STATIC ? ['--disable-features=LocalNetworkAccessChecks'] : []),
    ],
  });
  if (process.env.E2E_STATIC) await serveStaticFromTree(context);
  return {
    context,
    async stop() { await context.close(); rmSync(profile, { recursive: true, force: true }); },
  };
}

// Holds back the answers to the requests `matches` picks (among those
// `pattern` routes) until `release`, which lets them go and waits until
// one has reached the page and had its turn to paint: for a test of an
// older ask's answer arriving after a newer one's.
export async function holdBack(page, pattern, matches) {
  let letGo;
  const held = new Promise((resolve) => { letGo = resolve; });
  await page.route(pattern, async (route) => {
    if (matches(route.request())) await held;
    await route.continue();
  });
  return async function release() {
    const late = page.waitForResponse((r) => matches(r.request()));
    letGo();
    await late;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  };
}

// E2E_STATIC=1 serves the page's own files from the work tree instead of
// the binary's embedded copies, so a change to the page can be tried
// without a rebuild. Files the server writes (faces.js, icons) still come
// from it.
async function serveStaticFromTree(context) {
  const dir = join(repo, 'crates', 'server', 'static');
  const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.webmanifest': 'application/manifest+json' };
  const pages = {
    '/replay/': 'replay.html', '/race/': 'race.html', '/arena/': 'arena.html', '/arenas': 'arena.html',
    '/fmc': 'fmc.html', '/time-attack': 'time-attack.html', '/rankings': 'rankings.html', '/u/': 'profile.html',
  };
  await context.route(/\/(static\/[^/?]+|(replay|race|arena|u)\/[^/?]+|fmc|time-attack|arenas|rankings|)(\?.*)?$/, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const page = Object.keys(pages).find((prefix) => path.startsWith(prefix));
    const name = path === '/' ? 'index.html' : page ? pages[page] : path.slice('/static/'.length);
    const file = join(dir, name);
    if (!existsSync(file)) return route.continue();
    const type = types[name.slice(name.lastIndexOf('.'))] || 'application/octet-stream';
    return route.fulfill({ status: 200, contentType: type, body: readFileSync(file) });
  });
}
