// Shisen-Sho in a real browser: a deal cleared at a person's pace becomes a
// record with a replay; one cleared by following hints is kept unranked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, startBrowser, screenshots, tesseraBin } from './harness.js';
import { signUp, uniqueHandle } from './account.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

test('a small deal played to the end by hints is kept, but not ranked', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#shisen&size=8x4&gravity=0&chinese=0&seed=5`);
  await page.waitForSelector('#shisen-board .stile');
  assert.equal(await page.textContent('#shisen-left'), '32');
  assert.match(await page.textContent('#shisen-status'), /solvable/);
  for (let round = 0; round < 100; round++) {
    if (await page.locator('#shisen-status:has-text("Cleared")').count()) break;
    const left = Number(await page.textContent('#shisen-left'));
    if (left === 0) { await page.waitForSelector('#shisen-status:has-text("Cleared")'); break; }
    await page.click('#shisen-hint');
    await page.waitForFunction(() =>
      document.querySelectorAll('.stile.hinted').length === 2
      || document.querySelector('#shisen-status').textContent.includes('No moves left'));
    const hinted = await page.$$eval('.stile.hinted', (els) => els.map((e) => e.dataset.cell));
    if (hinted.length < 2) {
      await page.click('#shisen-shuffle');
      await page.waitForFunction(() => !document.querySelector('#shisen-status').classList.contains('warn')
        || document.querySelector('#shisen-status').textContent.includes('Still'));
      continue;
    }
    await page.click(`.stile[data-cell="${hinted[0]}"]`);
    await page.click(`.stile[data-cell="${hinted[1]}"]`);
    await page.waitForFunction((n) => Number(document.querySelector('#shisen-left').textContent) === n, left - 2);
  }
  await page.waitForSelector('#shisen-status.warn:has-text("Cleared")');
  assert.match(await page.textContent('#shisen-status'), /Cleared in .* score \d+, not ranked — assisted/);
  const row = page.locator('#shisen-records table.records tr.mine').first();
  await row.waitFor();
  assert.match(await row.textContent(), /assisted/);
});

// The board of the deal on screen, as text rows.
async function boardText(page, w, h) {
  const cells = Array(w * h).fill('.');
  for (const [i, k] of await page.$$eval('.stile', (els) => els.map((e) => [Number(e.dataset.cell), e.dataset.kind]))) cells[i] = k;
  const rows = [];
  for (let y = 0; y < h; y++) rows.push(cells.slice(y * w, (y + 1) * w).join(''));
  return rows.join('\n');
}

// Clears the deal on the page at a person's pace, with the removals the
// command line's solver finds (the server is not asked). Gives the solution.
async function clearByHand(page, w, h) {
  const board = await boardText(page, w, h);
  const solution = JSON.parse(execFileSync(tesseraBin(), ['shisen', 'solve', '--json', board]).toString());
  assert.equal(solution.result, 'solvable');
  await page.waitForTimeout(500);
  for (const [x1, y1, x2, y2] of solution.moves) {
    const left = Number(await page.textContent('#shisen-left'));
    await page.click(`.stile[data-cell="${y1 * w + x1}"]`);
    await page.waitForTimeout(150);
    await page.click(`.stile[data-cell="${y2 * w + x2}"]`);
    await page.waitForFunction((n) => Number(document.querySelector('#shisen-left').textContent) === n, left - 2);
    await page.waitForTimeout(250);
  }
  return solution;
}

test('a deal cleared at a person\'s pace is a record whose replay shows every path', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#shisen&size=6x4&gravity=0&chinese=0&seed=3`);
  await page.waitForSelector('#shisen-board .stile');
  // Records need an account.
  const handle = uniqueHandle('Shisen');
  await signUp(page, handle);
  const solution = await clearByHand(page, 6, 4);
  await page.waitForSelector('#shisen-status.good');
  assert.match(await page.textContent('#shisen-status'), /Cleared in .* score \d+, ranked/);
  // The record, under the handle.
  const row = page.locator('#shisen-records table.records').first().locator('tr.mine').first();
  await row.waitFor();
  assert.ok((await row.textContent()).includes(handle));
  await page.waitForTimeout(300); // let animations settle
  await page.screenshot({ path: join(screenshots, 'shisen-cleared.png') });
  // The replay: each removal drawn with its path, to the empty board.
  await row.locator('a.replay-link').click();
  await page.waitForSelector('#replay-board .stile');
  assert.equal(await page.textContent('#replay-total'), String(solution.moves.length));
  await page.click('#replay-forward');
  assert.equal(await page.locator('#replay-board svg.paths polyline').count(), 1);
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(screenshots, 'replay-shisen.png') });
  await page.click('#replay-back');
  assert.equal(await page.locator('#replay-board .stile').count(), 24);
  await page.selectOption('#replay-speed', '8');
  await page.click('#replay-play');
  await page.waitForFunction(() => document.querySelector('#replay-status').textContent === 'Cleared.', null, { timeout: 20000 });
  assert.equal(await page.locator('#replay-board .stile').count(), 0);
});

test('a guest\'s clear is unranked until the guest signs up; then it is a record under the handle', async () => {
  const guest = await startBrowser();
  try {
    const page = await guest.context.newPage();
    await page.goto(`${server.url}#shisen&size=6x4&gravity=0&chinese=0&seed=4`);
    await page.waitForSelector('#shisen-board .stile');
    await clearByHand(page, 6, 4);
    await page.waitForSelector('#shisen-status.warn:has-text("Cleared")');
    assert.match(await page.textContent('#shisen-status'), /Cleared in .* score \d+, not ranked — guest: sign in to be ranked/);
    const record = page.locator('#shisen-records table.records').first().locator('tr.mine');
    await page.waitForSelector('#shisen-records table.records');
    assert.equal(await record.count(), 0, 'no record for a guest');
    const handle = uniqueHandle('Clear');
    await signUp(page, handle);
    await record.first().waitFor();
    assert.ok((await record.first().textContent()).includes(handle));
  } finally {
    await guest.stop();
  }
});

test('a full 18x8 deal: mismatched tiles shake, right click highlights a kind, pause hides the board', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#shisen&preset=18x8&gravity=0&chinese=0&seed=11`);
  await page.waitForSelector('#shisen-board .stile');
  assert.equal(await page.locator('.stile').count(), 144);
  // Two tiles of different kinds: no removal, a shake.
  const [a, b] = await page.$$eval('.stile', (els) => {
    const first = els[0];
    const other = els.find((e) => e.dataset.kind !== first.dataset.kind);
    return [first.dataset.cell, other.dataset.cell];
  });
  await page.click(`.stile[data-cell="${a}"]`);
  await page.click(`.stile[data-cell="${b}"]`);
  await page.waitForSelector('.stile.shake');
  assert.equal(await page.locator('.stile').count(), 144);
  // Right click: all four tiles of the kind light up.
  await page.click(`.stile[data-cell="${a}"]`, { button: 'right' });
  assert.equal(await page.locator('.stile.same').count(), 4);
  // A hinted pair removed.
  await page.click('#shisen-hint');
  await page.waitForSelector('.stile.hinted');
  const hinted = await page.$$eval('.stile.hinted', (els) => els.map((e) => e.dataset.cell));
  await page.click(`.stile[data-cell="${hinted[0]}"]`);
  await page.click(`.stile[data-cell="${hinted[1]}"]`);
  await page.waitForFunction(() => document.querySelector('#shisen-left').textContent === '142');
  await page.locator('.stile').nth(20).click();
  await page.waitForTimeout(300); // let animations settle
  await page.screenshot({ path: join(screenshots, 'shisen.png') });
  await page.click('#shisen-undo');
  await page.waitForFunction(() => document.querySelector('#shisen-left').textContent === '144');
  await page.click('#shisen-pause');
  await page.waitForSelector('#shisen-paused:not([hidden])');
  assert.equal(await page.locator('#shisen-board.hidden-board').count(), 1);
  // While paused the page holds no board at all.
  assert.equal(await page.locator('#shisen-board .stile').count(), 0);
  await page.click('#shisen-pause');
  await page.waitForSelector('#shisen-paused[hidden]', { state: 'attached' });
  await page.waitForFunction(() => document.querySelectorAll('#shisen-board .stile').length === 144);
});

test('a long press highlights every tile of the kind', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#shisen&preset=14x6&gravity=0&chinese=0&seed=2`);
  await page.waitForSelector('#shisen-board .stile');
  const press = (phase) => page.evaluate((phase) => {
    const tile = document.querySelector('.stile[data-cell="0"]');
    const r = tile.getBoundingClientRect();
    const touch = new Touch({ identifier: 1, target: tile, clientX: r.left + 5, clientY: r.top + 5 });
    tile.dispatchEvent(new TouchEvent(phase, {
      touches: phase === 'touchstart' ? [touch] : [], changedTouches: [touch], bubbles: true, cancelable: true,
    }));
  }, phase);
  await press('touchstart');
  await page.waitForTimeout(700);
  await press('touchend');
  const kind = await page.getAttribute('.stile[data-cell="0"]', 'data-kind');
  const same = await page.$$eval('.stile.same', (els) => els.map((e) => e.dataset.kind));
  assert.equal(same.length, 4);
  assert.ok(same.every((k) => k === kind));
});
