// Time attack, /time-attack, played as a person would by keyboard: a run
// starts, two puzzles are solved with the arrow keys (the moves the
// server's solver gives for the board the screen reader's grid shows),
// the score counts them, the run is ended and sent, and the page shows
// the server's score and why the run is not ranked (a guest's, played at
// a script's speed); axe-core finds
// no violation before, during or after, in either colour scheme. (What the
// server does with runs: tests/it/time_attack.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';

let server, desk;
before(async () => { server = await startServer(); desk = await startBrowser(); });
after(async () => { await desk?.stop(); server?.stop(); });

const KEY = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

// The board as the screen reader's grid reads it: `1 2 3 4/…`, 0 the blank.
const position = (page) => page.$$eval('#ta-board [data-place]', (cells) => {
  const tiles = cells.map((c) => { const t = c.textContent.split(',')[0]; return t === 'blank' ? '0' : t; });
  return [0, 4, 8, 12].map((i) => tiles.slice(i, i + 4).join(' ')).join('/');
});

async function solveOne(page) {
  const solved = await page.evaluate(async (p) => {
    const r = await fetch('/api/slide/solve', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position: p }) });
    return r.json();
  }, await position(page));
  for (const [, letter, count] of solved.moves.matchAll(/([UDLR])(\d*)/g)) {
    for (let i = 0; i < (count ? Number(count) : 1); i += 1) await page.keyboard.press(KEY[letter]);
  }
}

test('a short run by keyboard: two puzzles solved, the score shown and sent', async () => {
  const page = await desk.context.newPage();
  await page.goto(`${server.url}time-attack`);
  await page.waitForSelector('#ta-bests:has-text("Your best today: none yet")');
  await noViolations(page, 'the time-attack page');

  await page.click('#ta-start');
  await page.waitForSelector('#ta-play:not([hidden])');
  assert.match(await page.textContent('#ta-puzzle'), /^1 of 50/);
  await page.focus('#ta-board');
  await noViolations(page, 'the time-attack page during a run');
  await solveOne(page);
  await page.waitForSelector('#ta-score:has-text("1")');
  assert.match(await page.textContent('#ta-puzzle'), /^2 of 50/);
  await solveOne(page);
  await page.waitForSelector('#ta-score:has-text("2")');
  // Solved optimally: each added time, and the streak shows it.
  assert.equal(await page.textContent('#ta-streak'), '2');

  await page.click('#ta-end');
  await page.waitForSelector('#ta-result:not([hidden])');
  const result = await page.textContent('#ta-result-text');
  // A guest playing at a script's speed: not ranked, and the page says why.
  assert.match(result, /^Score: 2\. Not ranked: (guest|too fast: puzzle \d)/);
  assert.match(result, /The bonuses added 6 s/);
  await page.waitForSelector('#ta-bests:has-text("Your best today: 2. All time: 2.")');
  await noViolations(page, 'the time-attack page after a run');
  await page.emulateMedia({ colorScheme: 'dark' });
  await noViolations(page, 'the time-attack page after a run, dark scheme');
  await page.close();
});

test('on a 360 px phone a run does not scroll sideways', async () => {
  const phone = await startBrowser({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  try {
    const page = await phone.context.newPage();
    await page.goto(`${server.url}time-attack`);
    await page.click('#ta-start');
    await page.waitForSelector('#ta-board .tile');
    const sideways = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth) - screen.width);
    assert.ok(sideways <= 0, `the page scrolls ${sideways} px sideways`);
  } finally {
    await phone.stop();
  }
});
