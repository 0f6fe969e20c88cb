// The daily fewest-moves challenge's page, /fmc, as a keyboard and screen
// reader user meets it: arrow keys on the board slide tiles and the moves
// box follows; a typed illegal move is named at once; a solution typed in
// the box is sent and becomes the player's entry; axe-core finds no
// violation in either colour scheme. (What the server does with entries:
// tests/it/fmc.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';
import { signUp, uniqueHandle } from './account.js';

let server, desk;
before(async () => { server = await startServer(); desk = await startBrowser(); });
after(async () => { await desk?.stop(); server?.stop(); });

// The board's tiles as shown, row-major, 0 the blank.
const tilesOf = (page, size) => page.$eval(`[aria-labelledby="fmc-${size}-title"] .slide-board`, (board) => {
  const tiles = Array(board.querySelectorAll('[data-place]').length).fill(0);
  for (const t of board.querySelectorAll('.tile')) tiles[Number(t.dataset.cell)] = Number(t.dataset.tile);
  return tiles;
});

test('the board by keyboard, the moves box checked as it is typed, an entry sent', async () => {
  const page = await desk.context.newPage();
  await page.goto(server.url);
  await signUp(page, uniqueHandle('fmc'));
  await page.goto(`${server.url}fmc`);
  await page.waitForSelector('#fmc-4x4-moves');
  await noViolations(page, 'the fewest-moves page');

  // An arrow key on the board slides a tile, and the box writes the move.
  const before = await tilesOf(page, '4x4');
  const blank = before.indexOf(0);
  const [key, letter] = blank % 4 < 3 ? ['ArrowLeft', 'L'] : ['ArrowRight', 'R'];
  await page.focus('[aria-labelledby="fmc-4x4-title"] .slide-board');
  await page.keyboard.press(key);
  assert.equal(await page.inputValue('#fmc-4x4-moves'), letter);
  const after = await tilesOf(page, '4x4');
  assert.equal(after.indexOf(0), blank + (letter === 'L' ? 1 : -1));
  assert.match(await page.textContent('#fmc-4x4-check'), /^1 moves, not solved yet/);

  // A move no tile can make is named as it is typed, and Send stays off.
  await page.fill('#fmc-4x4-moves', 'U4');
  assert.match(await page.textContent('#fmc-4x4-check'), /^Move \d \(U\) is illegal/);
  assert.ok(await page.isDisabled('[aria-labelledby="fmc-4x4-title"] button:has-text("Send")'));

  // A solution (the server's solver's, for the test) typed and sent.
  const position = await page.evaluate(() => document.querySelector('[aria-labelledby="fmc-4x4-title"] p').textContent.split('Scramble: ')[1]);
  const solved = await page.evaluate(async (p) => {
    const r = await fetch('/api/slide/solve', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position: p }) });
    return r.json();
  }, position);
  await page.fill('#fmc-4x4-moves', solved.moves);
  assert.match(await page.textContent('#fmc-4x4-check'), new RegExp(`^Solved: ${solved.moves.length} moves`));
  await page.click('[aria-labelledby="fmc-4x4-title"] button:has-text("Send")');
  await page.waitForSelector('#fmc-4x4-title:has-text("1 entry so far")');
  assert.match(await page.textContent('[aria-labelledby="fmc-4x4-title"]'), new RegExp(`Your entry: ${solved.moves.length} moves`));
  await noViolations(page, 'the fewest-moves page with an entry');
  await page.emulateMedia({ colorScheme: 'dark' });
  await noViolations(page, 'the fewest-moves page, dark scheme');
  await page.close();
});

test('on a 360 px phone the page does not scroll sideways', async () => {
  const phone = await startBrowser({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  try {
    const page = await phone.context.newPage();
    await page.goto(`${server.url}fmc`);
    await page.waitForSelector('#fmc-5x5-moves');
    const sideways = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, window.innerWidth) - screen.width);
    assert.ok(sideways <= 0, `the page scrolls ${sideways} px sideways`);
  } finally {
    await phone.stop();
  }
});
