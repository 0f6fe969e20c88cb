// Display types on the sliding puzzle page: on a fixed position, every
// tile shows what play::display computes (e2e/fixtures/display.json, kept
// equal to it by crates/tessera/tests/it/client_rules.rs), a link opens a
// display, a blindfold solve stays standard, and axe finds nothing wrong.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startBrowser, repo } from './harness.js';
import { readTiles } from './puzzle.js';
import { noViolations } from './axe.js';

const fixture = JSON.parse(readFileSync(join(repo, 'e2e', 'fixtures', 'display.json'), 'utf8'));
const KEY = { U: 'ArrowUp', D: 'ArrowDown', L: 'ArrowLeft', R: 'ArrowRight' };

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

// What each cell of the page's board shows, as the fixture writes it:
// null for the blank, else [text, hidden, tint, arrow, opacity].
async function shownOnPage(page, cells) {
  return page.evaluate((n) => {
    const out = Array(n).fill(null);
    for (const el of document.querySelectorAll('#slide-board .tile')) {
      const arrow = el.dataset.arrow ? el.dataset.arrow.split(',').map(Number) : null;
      out[Number(el.dataset.cell)] = {
        text: el.textContent, hidden: el.classList.contains('unseen'), tint: el.dataset.tint || null,
        arrow, opacity: el.style.opacity === '' ? null : Number(el.style.opacity),
        seen: getComputedStyle(el).color !== 'rgba(0, 0, 0, 0)',
      };
    }
    return out;
  }, cells);
}

function same(display, got, want) {
  got.forEach((g, i) => {
    const w = want[i];
    const where = `${display}, cell ${i}`;
    if (w === null) { assert.equal(g, null, where); return; }
    const [text, hidden, tint, arrow, opacity] = w;
    assert.equal(g.hidden, hidden, `${where}: hidden`);
    if (hidden) assert.equal(g.seen, false, `${where}: a hidden tile's text is not seen`);
    assert.equal(g.tint, tint, `${where}: tint`);
    assert.deepEqual(g.arrow, arrow, `${where}: arrow`);
    if (arrow) assert.equal(g.text, arrow[0] === 0 && arrow[1] === 0 ? '•' : '→', `${where}: arrow head`);
    else assert.equal(g.text, text, `${where}: text`);
    if (opacity) assert.ok(Math.abs(g.opacity - opacity[0] / opacity[1]) < 1e-3, `${where}: opacity ${g.opacity}`);
    else assert.equal(g.opacity, null, `${where}: opacity`);
  });
}

const link = (display) => `#slide&size=${fixture.size}&goal=${fixture.goal}&seed=${fixture.seed}&display=${display}`;

test('every display shows on each tile what play computes, after the same moves', async () => {
  const cells = fixture.start.length;
  for (const display of Object.keys(fixture.shown)) {
    const page = await chromium.context.newPage();
    await page.goto(`${server.url}${link(display)}`);
    await page.waitForSelector('#slide-board .tile');
    assert.equal(await page.inputValue('#slide-display'), display, 'the link chose the display');
    assert.deepEqual(await readTiles(page, cells), fixture.start, 'the seed deals the fixture\'s start');
    await page.locator('#slide-board').focus();
    for (const m of fixture.moves) await page.keyboard.press(KEY[m]);
    await page.waitForFunction((n) => document.getElementById('slide-moves').textContent === String(n), fixture.moves.length);
    assert.deepEqual(await readTiles(page, cells), fixture.now, 'the moves reach the fixture\'s position');
    same(display, await shownOnPage(page, cells), fixture.shown[display]);
    if (['vectors', 'rgb', 'minimal', 'fading-tiles'].includes(display)) await noViolations(page, `display ${display}`);
    await page.close();
  }
});

test('the Display chooser offers every display, and a blindfold solve is standard', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&seed=7&display=chess`);
  await page.waitForSelector('#slide-board .tile');
  assert.deepEqual(await page.$$eval('#slide-display option', (os) => os.map((o) => o.value)), Object.keys(fixture.shown));
  assert.equal(await page.$eval('#slide-board', (b) => b.dataset.display), 'chess');
  assert.match(page.url(), /display=chess/, 'the page\'s link keeps the display');
  await page.close();
  const bld = await chromium.context.newPage();
  await bld.goto(`${server.url}#slide&size=3x3&seed=7&format=bld&display=chess`);
  await bld.waitForSelector('#slide-board .tile');
  await bld.keyboard.press('ArrowLeft');
  await bld.keyboard.press('ArrowRight');
  assert.equal(await bld.inputValue('#slide-format'), 'bld');
  assert.ok(!(await bld.$eval('#slide-board', (b) => b.classList.contains('displayed'))), 'no display in bld');
  await bld.close();
});

test('the records page offers every display to rank by', async () => {
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#records`);
  await page.waitForSelector('#records-display option[value="manhattan"]', { state: 'attached' });
  assert.deepEqual(await page.$$eval('#records-display option', (os) => os.map((o) => o.value)), Object.keys(fixture.shown));
  await noViolations(page, 'the records page');
  await page.close();
});
