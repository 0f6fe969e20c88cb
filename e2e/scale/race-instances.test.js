// A race across instances: two tessera instances over one PostgreSQL
// database behind nginx (deploy/nginx.conf), as tests/it/scale_out.rs runs
// them. Ada's browser talks to one instance and Ben's to the other, so
// every move crosses from one to the other through the database; a third
// browser watches through nginx's WebSocket upgrade. Needs PostgreSQL and
// nginx: scripts/test runs it with TESSERA_E2E_POSTGRES set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from '../tests/harness.js';
import { bfs } from '../tests/puzzle.js';
import { myTiles, click, hears, takeSeat } from '../tests/racing.js';
import { startBalancer } from './balancer.js';

const GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0];
const postgres = process.env.TESSERA_E2E_POSTGRES;

let instances = [], balancer, ada, ben, watcher;
before(async () => {
  assert.ok(postgres, 'TESSERA_E2E_POSTGRES: a PostgreSQL server URL without a database (scripts/test starts one)');
  const db = `${postgres.replace(/\/$/, '')}/e2e_race_${process.pid}`;
  // One at a time: the first creates the database and migrates it.
  for (let i = 0; i < 2; i++) instances.push(await startServer({ db, extra: ['--trust-proxy'] }));
  balancer = await startBalancer(instances.map((s) => s.url));
  [ada, ben, watcher] = [await startBrowser(), await startBrowser(), await startBrowser()];
});
after(async () => {
  for (const b of [ada, ben, watcher]) await b?.stop();
  balancer?.stop();
  for (const s of instances) s.stop();
});

const table = (page) => page.$$eval('#race-table tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));

test('two friends on different instances race a 3x3, and a spectator watches through nginx', async () => {
  const [one, two] = instances.map((s) => s.url);
  const a = await ada.context.newPage();
  await a.goto(`${one}#slide&size=3x3&goal=row-major&seed=5`);
  await a.waitForSelector('#slide-board .tile');
  await a.click('#slide-race');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  const path = new URL(a.url()).pathname;
  await takeSeat(a, 'Ada');

  // Ben opens the same room on the other instance.
  const b = await ben.context.newPage();
  await b.goto(`${two.replace(/\/$/, '')}${path}`);
  await b.waitForSelector('#race-players li[data-player="1"]');
  await takeSeat(b, 'Ben');
  await a.waitForSelector('#race-players li[data-player="2"]');
  const w = await watcher.context.newPage();
  await w.goto(`${balancer.url.replace(/\/$/, '')}${path}`);
  await w.waitForSelector('#race-players li[data-player="2"]');

  for (const page of [a, b]) await page.click('#race-ready');
  for (const page of [a, b]) await page.waitForSelector('#race-board .tile', { timeout: 8000 });
  let ours = await myTiles(a);
  let his = await myTiles(b);
  assert.deepEqual(ours, his, 'one deal on both instances');

  // Ben's move, made on his instance, reaches Ada's page on hers within
  // half a second.
  const hisPath = bfs(his, GOAL);
  const sent = Date.now();
  his = await click(b, his, hisPath[0]);
  await a.waitForFunction(() => document.querySelector('.racer[data-player="2"] [data-stat="moves"]').textContent === '1',
    null, { timeout: 500 });
  assert.ok(Date.now() - sent < 500, `Ada saw Ben's move after ${Date.now() - sent} ms`);

  // Ada solves; Ben follows: all three see the same results.
  for (const move of bfs(ours, GOAL)) {
    ours = await click(a, ours, move);
    await a.waitForTimeout(250);
  }
  await hears(b, /^Ada finished 1st in /);
  for (const move of bfs(his, GOAL)) {
    his = await click(b, his, move);
    await b.waitForTimeout(250);
  }
  for (const page of [a, b, w]) await hears(page, /^Results: 1st, Ada, .*; 2nd, Ben, /);
  const results = await table(a);
  assert.deepEqual(await table(b), results);
  assert.deepEqual(await table(w), results);
  // Each replay link is served through the balancer, whichever instance
  // stored it.
  const replays = await a.$$eval('#race-table a[href^="/replay/"]', (links) => links.map((l) => l.getAttribute('href')));
  assert.equal(replays.length, 2);
  for (const replay of replays) {
    const id = replay.split('/').pop();
    const reply = await fetch(`${balancer.url}api/replays/${id}`);
    assert.equal(reply.status, 200, replay);
  }
  for (const page of [a, b, w]) await page.close();
});
