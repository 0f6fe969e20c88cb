// A profile's Control and Display choosers show the results and bests of
// that control and display alone, as the records' do, and the address
// carries the choice. (What the server filters: tests/it/profiles.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser, holdBack } from './harness.js';
import { signUp, uniqueHandle } from './account.js';
import { noViolations } from './axe.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// A 3x3 dealt to the page's player and solved at a person's pace, each move
// made by `input` (k keyboard, h hover), under `display`. The solution is
// asked as another player (no cookie of the page's), so it stays ranked.
async function solve(page, seed, input, gap, display) {
  const game = await page.evaluate(async (seed) => {
    const r = await fetch('/api/slide/new', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ size: '3x3', seed }),
    });
    return r.json();
  }, seed);
  const r = await fetch(`${server.url}api/slide/solve`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ position: game.position, goal: game.goal_position }),
  });
  const moves = (await r.json()).moves;
  const times = [...moves].map((_, i) => 300 + i * gap);
  await new Promise((done) => setTimeout(done, times[times.length - 1] + 100));
  const done = await page.evaluate(async (body) => {
    const r = await fetch('/api/slide/submit', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    return r.json();
  }, { game: game.game, moves, times, inputs: input.repeat(moves.length), display });
  assert.equal(done.ranked, true, JSON.stringify(done));
  return done;
}

const bestRows = (page) => page.locator('#profile-recent table.records').first().locator('tbody tr');

test('the profile shows one control and one display when chosen, and the address keeps them', async () => {
  const page = await chromium.context.newPage();
  const handle = uniqueHandle('Filter');
  await page.goto(server.url);
  await signUp(page, handle);
  await solve(page, 61, 'h', 25, 'standard');
  await solve(page, 62, 'k', 70, 'manhattan');

  await page.goto(`${server.url}u/${handle}`);
  await page.waitForSelector('#profile-info:has-text("2 solves")');
  // Every control: one best single per display, kept over every control.
  assert.equal(await bestRows(page).filter({ hasText: 'single' }).count(), 2);
  assert.equal(await bestRows(page).filter({ hasText: 'any control' }).count(), await bestRows(page).count());

  await page.selectOption('#profile-control', 'hover');
  await page.waitForSelector('#profile-info:has-text("1 solve (hover)")');
  assert.match(page.url(), /\?control=hover$/);
  assert.equal(await bestRows(page).filter({ hasText: 'single' }).count(), 1);
  assert.equal(await bestRows(page).filter({ hasText: 'hover' }).count(), await bestRows(page).count());

  await page.selectOption('#profile-display', 'manhattan');
  await page.waitForSelector('#profile-info:has-text("0 solves (hover, display manhattan)")');
  assert.match(page.url(), /\?control=hover&display=manhattan$/);
  await page.waitForSelector('#profile-recent td:has-text("no ranked results yet")');

  // A link with both opens the profile so.
  await page.goto(`${server.url}u/${handle}?control=keyboard&display=manhattan`);
  await page.waitForSelector('#profile-info:has-text("1 solve (keyboard, display manhattan)")');
  assert.equal(await page.inputValue('#profile-control'), 'keyboard');
  assert.equal(await page.inputValue('#profile-display'), 'manhattan');
  assert.equal(await bestRows(page).filter({ hasText: 'display manhattan, keyboard' }).count(), await bestRows(page).count());
  assert.deepEqual(await page.$$eval('#profile-control option', (os) => os.map((o) => o.textContent)),
    ['any', 'hover', 'click', 'keyboard', 'touch', 'mixed']);
  await noViolations(page, 'a filtered profile');
  await page.close();
});

// Answers can come back out of order: the profile of the control chosen
// last stays on the page when the unfiltered answer arrives after it.
test('the profile keeps the latest choice when an older answer comes back last', async () => {
  // A guest again, to sign up anew.
  await chromium.context.clearCookies();
  const page = await chromium.context.newPage();
  const handle = uniqueHandle('Late');
  await page.goto(server.url);
  await signUp(page, handle);
  // Hold back the unfiltered profile (no query).
  const plain = new RegExp(`/api/users/${handle}$`);
  const release = await holdBack(page, plain, (r) => plain.test(r.url()));
  await page.goto(`${server.url}u/${handle}`);
  await page.waitForSelector('#profile-control option[value="hover"]', { state: 'attached' });
  await page.selectOption('#profile-control', 'hover');
  await page.waitForSelector('#profile-info:has-text("0 solves (hover)")');
  await release();
  assert.match(await page.textContent('#profile-info'), /^0 solves \(hover\)/);
  await page.close();
});
