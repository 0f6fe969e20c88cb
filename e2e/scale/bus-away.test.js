// The race page while the live-play bus is away: an instance serving its
// rooms over a Redis server of this test's own (`serve --bus`), which the
// test kills and starts again mid-race. The page says plainly that moves
// are not saved, then that the race is back, and a move made after that
// reaches the race. Needs redis-server: scripts/test runs it in the phase
// that sets TESSERA_BUS (it is skipped otherwise).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, startBrowser } from '../tests/harness.js';
import { bfs } from '../tests/puzzle.js';
import { myTiles, click, takeSeat } from '../tests/racing.js';

const skip = !process.env.TESSERA_BUS && 'runs where scripts/test sets TESSERA_BUS';

const freePort = () => new Promise((ok) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => ok(port));
  });
});

const answers = (port) => new Promise((ok) => {
  const socket = connect(port, '127.0.0.1', () => { socket.end(); ok(true); });
  socket.on('error', () => ok(false));
});

// redis-server on `port` with its files in `dir`, every write synced.
async function startRedis(port, dir) {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !(await answers(port)); i++) await new Promise((ok) => setTimeout(ok, 50));
  return child;
}

const GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0];

let redis, port, dir, server, ada, ben;
before(async () => {
  if (skip) return;
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'tessera-redis-'));
  redis = await startRedis(port, dir);
  server = await startServer({ extra: ['--bus', `redis://127.0.0.1:${port}`] });
  [ada, ben] = [await startBrowser(), await startBrowser()];
});
after(async () => {
  for (const b of [ada, ben]) await b?.stop();
  server?.stop();
  redis?.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const status = (page) => page.$eval('#race-status', (e) => e.textContent);

test('the race page says when the live-play bus is away and when it is back', { skip }, async () => {
  const a = await ada.context.newPage();
  await a.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=5`);
  await a.waitForSelector('#slide-board .tile');
  await a.click('#slide-race');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  await takeSeat(a, 'Ada');
  const b = await ben.context.newPage();
  await b.goto(a.url());
  await takeSeat(b, 'Ben');
  for (const page of [a, b]) await page.click('#race-ready');
  for (const page of [a, b]) await page.waitForSelector('#race-board .tile', { timeout: 8000 });

  redis.kill('SIGKILL');
  await new Promise((ok) => redis.on('exit', ok));
  for (const page of [a, b]) {
    await page.waitForFunction(() => /lost its link/.test(document.querySelector('#race-status').textContent));
  }
  assert.match(await status(a), /moves are not saved until it is back/);

  redis = await startRedis(port, dir);
  for (const page of [a, b]) {
    await page.waitForFunction(() => /server is back/.test(document.querySelector('#race-status').textContent),
      null, { timeout: 5000 });
  }
  // A move now goes through: Ben's page draws it on Ada's card.
  const ours = await myTiles(a);
  await click(a, ours, bfs(ours, GOAL)[0]);
  await b.waitForFunction(() => document.querySelector('.racer[data-player="1"] [data-stat="moves"]')?.textContent === '1',
    null, { timeout: 5000 });
});
