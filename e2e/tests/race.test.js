// A race between two friends, each in their own browser: one opens it from
// the sliding puzzle's page and shares the link, both join and get ready,
// each sees the other's moves live, the first to solve is first in the
// results both see, the replays play, and a rematch deals a new puzzle. A
// third browser only watches, and sees every board.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, startBrowser, screenshots, tesseraBin } from './harness.js';
import { SOURCE, step, bfs } from './puzzle.js';
import { noViolations } from './axe.js';
import { myTiles, click, hears, takeSeat } from './racing.js';

const GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0];

let server, ada, ben, watcher;
before(async () => {
  server = await startServer();
  [ada, ben, watcher] = [await startBrowser(), await startBrowser(), await startBrowser()];
});
after(async () => {
  for (const b of [ada, ben, watcher]) await b?.stop();
  server?.stop();
});

// The small live board of `player` as another page shows it.
const theirTiles = (page, player) => page.$$eval(`.racer[data-player="${player}"] .mini-board .cell`,
  (els) => els.map((e) => Number(e.textContent || 0)));

const stat = (page, player, name) => page.textContent(`.racer[data-player="${player}"] [data-stat="${name}"]`);

// Plays `moves` by clicking tiles at a person's pace.
async function playByHand(page, tiles, moves) {
  for (const m of moves) {
    tiles = await click(page, tiles, m);
    await page.waitForTimeout(250);
  }
  return tiles;
}

// Both get ready; the countdown is heard, then the puzzle comes.
async function readyAndStart(pages) {
  for (const page of pages) await page.click('#race-ready');
  // The countdown names the puzzle it deals ("3×3 sliding puzzle, row-major goal starts in 3 seconds.").
  for (const page of pages) await hears(page, /^\S+ (sliding puzzle|Shisen-Sho).* starts in 3 seconds\.$/);
  for (const page of pages) await page.waitForSelector('#race-board .tile', { timeout: 6000 });
  for (const page of pages) await hears(page, /^Go!$/);
}

// Steps a replay page to its end by playing it, and gives its last board.
async function playReplay(page, url) {
  await page.goto(url);
  await page.waitForSelector('#replay-board .tile');
  const total = Number(await page.textContent('#replay-total'));
  assert.ok(total > 0, 'the replay has moves');
  await page.selectOption('#replay-speed', '8');
  await page.click('#replay-play');
  await page.waitForFunction((n) => Number(document.querySelector('#replay-move').textContent) === n, total, { timeout: 20000 });
  return page.$$eval('#replay-board .tile', (els) => {
    const tiles = Array(els.length + 1).fill(0);
    for (const e of els) {
      const [x, y] = e.style.transform.match(/-?[\d.]+/g).map(Number).map((v) => Math.round(v / 100));
      tiles[y * 3 + x] = Number(e.dataset.tile);
    }
    return tiles;
  });
}

test('two friends race a 3x3: live boards, the same results, replays, a rematch', async () => {
  const a = await ada.context.newPage();
  await a.goto(`${server.url}#slide&size=3x3&goal=row-major&seed=5`);
  await a.waitForSelector('#slide-board .tile');
  await a.click('#slide-race');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  const link = await a.inputValue('#race-url');
  assert.equal(link, a.url(), 'the link to share is the page');
  await takeSeat(a, 'Ada');
  assert.equal(await a.isHidden('#race-start'), true, 'the host starts only with someone to race');

  const b = await ben.context.newPage();
  await b.goto(link);
  // Before joining, Ben watches: Ada is in the lobby, the host.
  await b.waitForSelector('#race-players li[data-player="1"]');
  assert.match(await b.textContent('#race-players li[data-player="1"]'), /^Ada — not ready, host$/);
  await takeSeat(b, 'Ben');
  await a.waitForSelector('#race-players li[data-player="2"]');
  await a.waitForSelector('#race-start:not([hidden])');
  const w = await watcher.context.newPage();
  await w.goto(link);
  await w.waitForSelector('#race-players li[data-player="2"]');

  await readyAndStart([a, b]);
  let ours = await myTiles(a);
  let his = await myTiles(b);
  assert.deepEqual(ours, his, 'the same puzzle for both');
  const firstSeed = await a.getAttribute('#race-board', 'data-seed');
  // The watcher has no board of their own and sees both racers'.
  await w.waitForSelector('.racer[data-player="1"] .mini-board');
  await w.waitForSelector('.racer[data-player="2"] .mini-board');
  assert.equal(await w.isHidden('#race-mine'), true);
  assert.deepEqual(await theirTiles(w, 1), ours);

  // Ben's move reaches Ada's page within half a second, board and all.
  const hisPath = bfs(his, GOAL);
  let sent = Date.now();
  his = await click(b, his, hisPath[0]);
  await a.waitForFunction(() => document.querySelector('.racer[data-player="2"] [data-stat="moves"]').textContent === '1',
    null, { timeout: 500 });
  assert.ok(Date.now() - sent < 500, `Ada saw Ben's move after ${Date.now() - sent} ms`);
  assert.deepEqual(await theirTiles(a, 2), his);
  // And Ada's reaches Ben's.
  const ourPath = bfs(ours, GOAL);
  sent = Date.now();
  ours = await click(a, ours, ourPath[0]);
  await b.waitForFunction(() => document.querySelector('.racer[data-player="1"] [data-stat="moves"]').textContent === '1',
    null, { timeout: 500 });
  assert.ok(Date.now() - sent < 500, `Ben saw Ada's move after ${Date.now() - sent} ms`);
  assert.deepEqual(await theirTiles(b, 1), ours);
  await w.waitForFunction(() => document.querySelector('.racer[data-player="1"] [data-stat="moves"]').textContent === '1');

  // Ada solves it first; Ben hears so.
  await a.waitForTimeout(300);
  ours = await playByHand(a, ours, ourPath.slice(1));
  assert.deepEqual(ours, GOAL);
  await a.waitForFunction(() => /^You finished 1st in/.test(document.querySelector('#race-status').textContent));
  await hears(b, /^Ada finished 1st in /);
  await b.waitForSelector('.racer[data-player="1"].done');
  assert.deepEqual(await theirTiles(b, 1), GOAL);
  assert.equal(await stat(b, 1, 'placed'), '8/8');
  await a.screenshot({ path: join(screenshots, 'race-racing.png') });
  // Racing, with a finished opponent: every text readable in both schemes.
  for (const scheme of ['dark', 'light']) {
    await b.emulateMedia({ colorScheme: scheme });
    await noViolations(b, `a race under way (${scheme})`);
  }

  // Then Ben, from where he is.
  const hisRest = bfs(his, GOAL);
  his = await playByHand(b, his, hisRest);
  for (const page of [a, b, w]) await hears(page, /^Results: 1st, Ada, .*; 2nd, Ben, /);
  const table = (page) => page.$$eval('#race-table tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  const results = await table(a);
  assert.deepEqual(await table(b), results, 'both see the same results');
  assert.deepEqual(await table(w), results);
  assert.deepEqual(results.map((r) => r.slice(0, 2)), [['1st', 'Ada'], ['2nd', 'Ben']]);
  assert.equal(results[0][3], String(ourPath.length));
  assert.equal(results[1][3], String(1 + hisRest.length));
  await a.screenshot({ path: join(screenshots, 'race-results.png') });
  for (const scheme of ['dark', 'light']) {
    await a.emulateMedia({ colorScheme: scheme });
    await noViolations(a, `a race's results (${scheme})`);
  }

  // Each result links to its replay, which plays to the solved board.
  const replays = await a.$$eval('#race-table a[href^="/replay/"]', (links) => links.map((l) => l.getAttribute('href')));
  assert.equal(replays.length, 2);
  const r = await ada.context.newPage();
  for (const replay of replays) assert.deepEqual(await playReplay(r, `${server.url.replace(/\/$/, '')}${replay}`), GOAL);
  await r.close();

  // A rematch: the same room, a new puzzle.
  await b.click('#race-rematch');
  for (const page of [a, b]) await page.waitForSelector('#race-ready:not([hidden])');
  assert.equal(await a.isHidden('#race-results'), true);
  await readyAndStart([a, b]);
  assert.notEqual(await a.getAttribute('#race-board', 'data-seed'), firstSeed, 'a new puzzle');
  assert.deepEqual(await myTiles(a), await myTiles(b));
  assert.equal(await b.textContent('#race-moves'), '0');
  for (const page of [a, b, w]) await page.close();
});

// Opens a racer's socket from `page` under a cookie of its own (the
// context's is cleared first: a new cookie is a new player) and joins.
async function bot(context, page, room, name) {
  await context.clearCookies();
  await page.evaluate(([path, who]) => new Promise((ok, fail) => {
    const socket = new WebSocket(`ws://${location.host}${path}`);
    (window.bots ||= []).push(socket);
    socket.onopen = () => { socket.send(JSON.stringify({ type: 'join', name: who })); ok(); };
    socket.onerror = () => fail(new Error('the socket did not open'));
  }), [`/api/races/${room}/ws`, name]);
}

test('four opponents fit a laptop screen beside the player\'s own board', async () => {
  const a = await ada.context.newPage();
  await a.setViewportSize({ width: 1366, height: 768 });
  await a.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=5`);
  await a.waitForSelector('#slide-board .tile');
  await a.click('#slide-race');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  const room = a.url().split('/').pop();
  await takeSeat(a, 'Ada');
  const w = await watcher.context.newPage();
  await w.goto(`${server.url}#records`);
  for (const name of ['Ben', 'Cleo', 'Dmitri Aleksandrovich', 'Eve']) await bot(watcher.context, w, room, name);
  await a.waitForSelector('#race-players li[data-player="5"]');
  await a.click('#race-start');
  await a.waitForSelector('#race-board .tile', { timeout: 6000 });
  await a.waitForSelector('.racer[data-player="5"]');
  // One opponent moves: its board changes on Ada's page.
  const before = await theirTiles(a, 4);
  const move = before.indexOf(0) >= 4 ? 'D' : 'U';
  await w.evaluate((m) => window.bots[2].send(JSON.stringify({ type: 'move', moves: m, t: 500 })), move);
  await a.waitForFunction(() => document.querySelector('.racer[data-player="4"] [data-stat="moves"]').textContent === '1');
  assert.deepEqual(await theirTiles(a, 4), step(before, 4, 4, move));
  // Everything on one screen: no scrolling, every board whole.
  const overflow = await a.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  assert.ok(overflow <= 0, `the page scrolls ${overflow} px`);
  const boxes = await a.$$eval('#race-board, .racer', (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.equal(boxes.length, 5);
  for (const box of boxes) assert.ok(box.bottom <= 768 && box.right <= 1366 && box.top >= 0, JSON.stringify(box));
  await a.screenshot({ path: join(screenshots, 'race-five.png') });
  // Ada moves by keyboard and reloads the page: she is back in her seat
  // with her board as she left it, and races on.
  await w.evaluate(() => window.bots[0].addEventListener('message', (e) => {
    const m = JSON.parse(e.data);
    if (m.type === 'progress' && m.player === 1) window.adasMoves = m.moves;
  }));
  const mine = await myTiles(a);
  const key = mine.indexOf(0) >= 4 ? ['ArrowDown', 'D'] : ['ArrowUp', 'U'];
  await a.focus('#race-board');
  await a.keyboard.press(key[0]);
  const moved = step(mine, 4, 4, key[1]);
  assert.deepEqual(await myTiles(a), moved);
  await w.waitForTimeout(300);
  await a.reload();
  await a.waitForFunction(() => document.querySelector('#race-moves')?.textContent === '1' && !document.querySelector('#race-mine').hidden);
  assert.deepEqual(await myTiles(a), moved);
  const next = moved.indexOf(0) % 4 >= 1 ? ['ArrowRight', 'R'] : ['ArrowLeft', 'L'];
  await a.focus('#race-board');
  await a.keyboard.press(next[0]);
  assert.deepEqual(await myTiles(a), step(moved, 4, 4, next[1]));
  await a.waitForFunction(() => document.querySelector('#race-moves').textContent === '2');
  await w.waitForFunction(() => window.adasMoves === 2); // the server took it: the others see it
  await a.close();
  await w.close();
});

test('a link to a race that is gone says so, with a way back', async () => {
  const page = await watcher.context.newPage();
  await page.goto(`${server.url}race/${'0'.repeat(32)}`);
  await page.waitForFunction(() => /cannot be reached/.test(document.querySelector('#race-status').textContent), null, { timeout: 10000 });
  assert.equal(await page.getAttribute('#race-status a', 'href'), '/#slide');
  await page.close();
});

// How far the page reaches beyond the screen's width (a phone browser
// widens its layout to fit overflow, so compared with the device's).
const sideways = (page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth) - screen.width);

for (const [width, height] of [[360, 740], [390, 844]]) {
  test(`a race on a ${width}x${height} phone: three opponents, nothing sideways, a tap moves`, async () => {
    const phone = await startBrowser({ viewport: { width, height }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    try {
      const a = await phone.context.newPage();
      await a.goto(`${server.url}#slide&size=4x4&goal=row-major&seed=9`);
      await a.waitForSelector('#slide-board .tile');
      await a.click('#slide-race');
      await a.waitForURL(/\/race\/[0-9a-f]+$/);
      const room = a.url().split('/').pop();
      await takeSeat(a, 'Ada');
      const w = await watcher.context.newPage();
      await w.goto(`${server.url}#records`);
      for (const name of ['Ben', 'Cleo', 'Dmitri Aleksandrovich']) await bot(watcher.context, w, room, name);
      await a.waitForSelector('#race-players li[data-player="4"]');
      assert.ok(await sideways(a) <= 0, `the lobby scrolls ${await sideways(a)} px sideways`);
      await a.tap('#race-start');
      await a.waitForSelector('#race-board .tile', { timeout: 6000 });
      await a.waitForSelector('.racer[data-player="4"] .mini-board');
      for (const scheme of ['light', 'dark']) {
        await a.emulateMedia({ colorScheme: scheme });
        assert.ok(await sideways(a) <= 0, `the race scrolls ${await sideways(a)} px sideways (${scheme})`);
        const outside = await a.$$eval('#race-board, .racer, button:not([hidden]), input', (els) =>
          els.filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > screen.width); })
            .map((e) => e.id || e.className));
        assert.deepEqual(outside, [], 'nothing lies beyond the screen\'s edge');
        if (width === 390) await noViolations(a, `a race on a phone (${scheme})`);
      }
      // The own board's tiles are big enough for a finger, and a tap on
      // one next to the blank slides it.
      const smallest = await a.$$eval('#race-board .tile', (els) =>
        Math.min(...els.map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })));
      assert.ok(smallest >= 44, `the smallest tile is ${smallest} px`);
      const mine = await myTiles(a);
      const b = mine.indexOf(0);
      const move = Math.floor(b / 4) < 3 ? 'U' : 'D';
      const [dx, dy] = SOURCE[move];
      await a.tap(`#race-board .tile[data-cell="${(Math.floor(b / 4) + dy) * 4 + (b % 4) + dx}"]`);
      assert.deepEqual(await myTiles(a), step(mine, 4, 4, move));
      await a.waitForFunction(() => document.querySelector('#race-moves').textContent === '1');
      if (width === 390) await a.screenshot({ path: join(screenshots, 'race-phone.png') });
      await a.close();
      await w.close();
    } finally {
      await phone.stop();
    }
  });
}

// The player's own Shisen-Sho board as text, `.` for an empty cell.
async function shisenBoard(page, w, h) {
  const tiles = await page.$$eval('#race-shisen .stile', (els) => els.map((e) => [Number(e.dataset.cell), e.dataset.kind]));
  const cells = Array(w * h).fill('.');
  for (const [i, kind] of tiles) cells[i] = kind;
  const rows = [];
  for (let y = 0; y < h; y++) rows.push(cells.slice(y * w, (y + 1) * w).join(''));
  return rows.join('\n');
}

// Removes the pairs `moves` ([x1, y1, x2, y2] each) by clicking their
// tiles at a person's pace, each taken by the server before the next.
async function removeByHand(page, moves, w) {
  for (const [x1, y1, x2, y2] of moves) {
    const left = Number(await page.textContent('#race-left'));
    await page.click(`#race-shisen .stile[data-cell="${y1 * w + x1}"]`);
    await page.waitForTimeout(120);
    await page.click(`#race-shisen .stile[data-cell="${y2 * w + x2}"]`);
    await page.waitForFunction((n) => Number(document.querySelector('#race-left').textContent) === n, left - 2);
    await page.waitForTimeout(150);
  }
}

test('two friends race a small Shisen-Sho deal and both see the results', async () => {
  const a = await ada.context.newPage();
  await a.goto(`${server.url}#shisen&size=6x4&gravity=0&chinese=0&seed=3`);
  await a.waitForSelector('#shisen-board .stile');
  await a.click('#shisen-race');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  const link = await a.inputValue('#race-url');
  await takeSeat(a, 'Ada');
  const b = await ben.context.newPage();
  await b.goto(link);
  await takeSeat(b, 'Ben');
  await a.waitForSelector('#race-players li[data-player="2"]');
  // A third browser only watches: it sees both racers' boards.
  const w = await watcher.context.newPage();
  await w.goto(link);
  await w.waitForSelector('#race-players li[data-player="2"]');
  for (const page of [a, b]) await page.click('#race-ready');
  for (const page of [a, b]) await page.waitForSelector('#race-shisen .stile', { timeout: 6000 });
  const miniTiles = (player) => w.$$eval(`.racer[data-player="${player}"] .mini-shisen .mini-tile`, (els) => els.length);
  await w.waitForSelector('.racer[data-player="2"] .mini-shisen .mini-tile');
  assert.equal(await w.isHidden('#race-mine'), true);
  assert.equal(await miniTiles(1), 24);
  for (const page of [a, b]) await hears(page, /^Go!$/);
  assert.match(await a.textContent('#race-info'), /^Shisen-Sho 6x4 — seed \d+$/);
  const board = await shisenBoard(a, 6, 4);
  assert.equal(await shisenBoard(b, 6, 4), board, 'the same deal for both');
  assert.equal(await a.textContent('#race-left'), '24');
  // The opponents are counters: tiles left and score.
  await a.waitForSelector('.racer[data-player="2"] [data-stat="tiles_left"]');
  assert.equal(await stat(a, 2, 'tiles_left'), '24');

  const solution = JSON.parse(execFileSync(tesseraBin(), ['shisen', 'solve', '--json', board]).toString());
  assert.equal(solution.result, 'solvable');
  // Ben's first pair reaches Ada's page within half a second.
  await b.waitForTimeout(400);
  const sent = Date.now();
  await removeByHand(b, solution.moves.slice(0, 1), 6);
  await a.waitForFunction(() => document.querySelector('.racer[data-player="2"] [data-stat="tiles_left"]').textContent === '22',
    null, { timeout: 1000 });
  assert.ok(Date.now() - sent < 1000, `Ada saw Ben's pair after ${Date.now() - sent} ms`);
  assert.ok(Number(await stat(a, 2, 'score')) > 0, 'a removed pair scores');
  await w.waitForFunction(() => document.querySelectorAll('.racer[data-player="2"] .mini-shisen .mini-tile').length === 22);
  assert.equal(await a.$$eval('.racer[data-player="2"] .mini-shisen', (els) => els.length), 0, 'a racer sees counters only');
  // A pair that does not match is refused, and the board stays.
  const [first, second] = await b.$$eval('#race-shisen .stile', (els) => {
    const a = els[0];
    const other = els.find((e) => e.dataset.kind !== a.dataset.kind);
    return [a.dataset.cell, other.dataset.cell];
  });
  await b.click(`#race-shisen .stile[data-cell="${first}"]`);
  await b.click(`#race-shisen .stile[data-cell="${second}"]`);
  await b.waitForFunction(() => /^illegal turn/.test(document.querySelector('#race-status').textContent));
  assert.equal(await b.textContent('#race-left'), '22');

  // Ada clears the board first.
  await removeByHand(a, solution.moves, 6);
  await a.waitForFunction(() => /^You finished 1st in .*, score \d+\.$/.test(document.querySelector('#race-status').textContent));
  await hears(b, /^Ada finished 1st in /);
  assert.equal(await stat(b, 1, 'tiles_left'), '0');
  await a.screenshot({ path: join(screenshots, 'race-shisen.png') });
  // Then Ben, from where he is.
  await removeByHand(b, solution.moves.slice(1), 6);
  for (const page of [a, b, w]) await hears(page, /^Results: 1st, Ada, .*; 2nd, Ben, /);
  const table = (page) => page.$$eval('#race-table tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  const results = await table(a);
  assert.deepEqual(await table(b), results, 'both see the same results');
  assert.deepEqual(await table(w), results);
  assert.equal(await miniTiles(1), 0);
  await w.screenshot({ path: join(screenshots, 'race-shisen-watching.png') });
  assert.deepEqual(results.map((r) => [r[0], r[1], r[5]]), [['1st', 'Ada', '0'], ['2nd', 'Ben', '0']]);
  assert.equal(await a.textContent('#race-table thead th:nth-child(5)'), 'Score');
  assert.equal(results[0][3], String(solution.moves.length));
  for (const scheme of ['dark', 'light']) {
    await a.emulateMedia({ colorScheme: scheme });
    await noViolations(a, `a Shisen-Sho race's results (${scheme})`);
  }
  // Each clearing links to its replay.
  const replays = await a.$$eval('#race-table a[href^="/replay/"]', (links) => links.map((l) => l.getAttribute('href')));
  assert.equal(replays.length, 2);
  for (const page of [a, b, w]) await page.close();
});
