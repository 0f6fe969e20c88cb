// Where a Shisen-Sho game was lost, on its replay page: a deal played to a
// position that can no longer be cleared, put right with an undo and
// cleared; the replay shows a strip of one cell per turn, red at the
// losing turn, a button that goes there, and the page passes axe-core.
// The same for a game in progress, under the game's Analyse button.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, startBrowser, screenshots, tesseraBin } from './harness.js';
import { noViolations } from './axe.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

const W = 6;
const H = 4;

async function post(path, body) {
  const reply = await fetch(`${server.url.replace(/\/$/, '')}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const text = await reply.text();
  assert.equal(reply.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}

// The board with the pair [x1, y1, x2, y2] removed (no gravity).
function without(board, [x1, y1, x2, y2]) {
  const rows = board.trim().split('\n').map((row) => [...row]);
  rows[y1][x1] = '.';
  rows[y2][x2] = '.';
  return rows.map((row) => row.join('')).join('\n');
}

// A seed whose deal, some removals into a solution, offers a removal
// after which the board cannot be cleared: the seed, the removals before
// it and the mistake, as the engine (the command line's solver and the
// server's check) says. Most deals forgive every removal: try several.
async function aDealWithAMistake() {
  for (let seed = 1; seed < 200; seed++) {
    const deal = await post('/api/shisen/new', { size: `${W}x${H}`, gravity: false, chinese: false, seed });
    const solution = JSON.parse(execFileSync(tesseraBin(), ['shisen', 'solve', '--json', deal.board]).toString());
    if (solution.result !== 'solvable') continue;
    for (let k = 1; k < solution.moves.length - 1; k++) {
      const opening = solution.moves.slice(0, k);
      const board = opening.reduce(without, deal.board);
      const { pairs } = await post('/api/shisen/check', { board });
      for (const pair of pairs) {
        const after = await post('/api/shisen/check', { board: without(board, pair) });
        if (after.solvable === false) return { seed, opening, mistake: pair };
      }
    }
  }
  throw new Error('no deal with a mistake');
}

// The deal on screen, as text rows.
async function boardText(page) {
  const cells = Array(W * H).fill('.');
  for (const [i, k] of await page.$$eval('.stile', (els) => els.map((e) => [Number(e.dataset.cell), e.dataset.kind]))) cells[i] = k;
  const rows = [];
  for (let y = 0; y < H; y++) rows.push(cells.slice(y * W, (y + 1) * W).join(''));
  return rows.join('\n');
}

async function removePair(page, [x1, y1, x2, y2]) {
  const left = Number(await page.textContent('#shisen-left'));
  await page.click(`.stile[data-cell="${y1 * W + x1}"]`);
  await page.waitForTimeout(150);
  await page.click(`.stile[data-cell="${y2 * W + x2}"]`);
  await page.waitForFunction((n) => Number(document.querySelector('#shisen-left').textContent) === n, left - 2);
  await page.waitForTimeout(250);
}

test('a game lost at a turn, put right and cleared: the replay strip is red at that turn and the link goes there', async () => {
  const { seed, opening, mistake } = await aDealWithAMistake();
  const page = await chromium.context.newPage();
  const issued = page.waitForResponse((r) => r.url().endsWith('/api/shisen/new'));
  await page.goto(`${server.url}#shisen&size=${W}x${H}&gravity=0&chinese=0&seed=${seed}`);
  const game = (await (await issued).json()).game;
  await page.waitForSelector('#shisen-board .stile');
  await page.waitForTimeout(500);
  for (const pair of opening) await removePair(page, pair);
  await removePair(page, mistake);
  // The turn after undoes the mistake; the rest is the solver's line.
  await page.click('#shisen-undo');
  const lostAt = opening.length + 1;
  await page.waitForFunction((n) => Number(document.querySelector('#shisen-left').textContent) === n, W * H - 2 * opening.length);
  const rest = JSON.parse(execFileSync(tesseraBin(), ['shisen', 'solve', '--json', await boardText(page)]).toString());
  assert.equal(rest.result, 'solvable');
  for (const pair of rest.moves) await removePair(page, pair);
  await page.waitForSelector('#shisen-status:has-text("Cleared")');

  await page.goto(`${server.url}replay/${game}`);
  await page.waitForSelector('#loss-analysis:not([hidden])');
  const turns = opening.length + 2 + rest.moves.length;
  const cells = await page.$$eval('#loss-strip .loss-cell', (els) => els.map((e) => e.classList.contains('win') ? 'win' : e.classList.contains('lost') ? 'lost' : 'unknown'));
  const expected = Array(turns).fill('win');
  expected[lostAt - 1] = 'lost';
  assert.deepEqual(cells, expected);
  const before = lostAt - 1 === 1 ? 'turn 1' : `turns 1–${lostAt - 1}`;
  assert.match(await page.textContent('#loss-summary'), new RegExp(`Lost at turn ${lostAt}\\b.*A winning line existed from turn ${lostAt - 1}`));
  // The strip's text alternative tells the same.
  assert.match(await page.getAttribute('#loss-strip', 'aria-label'), new RegExp(`${before} winnable, turn ${lostAt} lost, turns ${lostAt + 1}–${turns} winnable`));
  await noViolations(page, 'the Shisen-Sho replay with its analysis');
  await page.click('#theme-toggle');
  await noViolations(page, 'the Shisen-Sho replay with its analysis, dark');
  await page.click('#theme-toggle');
  // The link goes to the losing turn: the mistake, its path drawn.
  await page.getByRole('button', { name: `Go to the losing turn (${lostAt})` }).click();
  assert.equal(await page.textContent('#replay-move'), String(lostAt));
  assert.match(await page.textContent('#replay-status'), new RegExp(`Turn ${lostAt}, the losing turn`));
  assert.equal(await page.locator('#replay-board svg.paths polyline').count(), 1);
  assert.equal(await page.locator('#loss-strip .loss-cell.current').count(), 1);
  assert.equal(await page.locator('#loss-strip .loss-cell').nth(lostAt - 1).getAttribute('class'), 'loss-cell lost current');
  await page.screenshot({ path: join(screenshots, 'replay-shisen-lost.png'), fullPage: true });
  // The winning line from the turn before plays to a cleared board.
  await page.selectOption('#replay-speed', '8');
  await page.click('#loss-continue');
  await page.waitForFunction(() => document.querySelector('#replay-status').textContent === 'Cleared.', null, { timeout: 20000 });
  assert.equal(await page.locator('#replay-board .stile').count(), 0);
  await page.click('#loss-yours');
  assert.equal(await page.textContent('#replay-total'), String(turns));
});

test('a game in progress, analysed: winnable with its next pair, then lost at the mistake, then winnable again after an undo', async () => {
  const { seed, opening, mistake } = await aDealWithAMistake();
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}#shisen&size=${W}x${H}&gravity=0&chinese=0&seed=${seed}`);
  await page.waitForSelector('#shisen-board .stile');
  await page.waitForTimeout(500);
  for (const pair of opening) await removePair(page, pair);
  const strip = () => page.$$eval('#shisen-analysis-strip .loss-cell', (els) => els.map((e) => e.classList.contains('win') ? 'win' : e.classList.contains('lost') ? 'lost' : 'unknown'));
  const analyse = async () => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/shisen/analysis'));
    await page.click('#shisen-analyse');
    assert.equal((await answered).status(), 200);
    await page.waitForSelector('#shisen-analysis:not([hidden])');
  };

  // Still winnable: every turn so far green, and the line's next pair
  // marked on the board is one the solver can go on from.
  await analyse();
  assert.deepEqual(await strip(), Array(opening.length).fill('win'));
  assert.match(await page.textContent('#shisen-analysis-summary'), /^The board can still be cleared\. A winning line from here takes \d+ pairs?\.$/);
  await page.click('#shisen-analysis-next');
  const marked = await page.$$eval('.stile.hinted', (els) => els.map((e) => Number(e.dataset.cell)).sort((a, b) => a - b));
  assert.equal(marked.length, 2);
  const cells = [...(await boardText(page)).replace(/\n/g, '')];
  assert.equal(cells[marked[0]], cells[marked[1]], 'the marked tiles match');
  await noViolations(page, 'the Shisen-Sho game with its analysis');
  await page.click('#theme-toggle');
  await noViolations(page, 'the Shisen-Sho game with its analysis, dark');
  await page.click('#theme-toggle');

  // The mistake: lost at that turn, the line from the turn before.
  await removePair(page, mistake);
  assert.equal(await page.isHidden('#shisen-analysis'), true, 'a new turn hides the old analysis');
  await analyse();
  const lostAt = opening.length + 1;
  assert.deepEqual(await strip(), [...Array(opening.length).fill('win'), 'lost']);
  assert.equal(await page.textContent('#shisen-analysis-summary'),
    `The board can no longer be cleared. It was lost at turn ${lostAt}. A winning line existed from ${opening.length === 0 ? 'the deal' : `turn ${opening.length}`}: undo back to it.`);
  assert.equal(await page.isHidden('#shisen-analysis-next'), true);
  assert.match(await page.getAttribute('#shisen-analysis-strip', 'aria-label'), new RegExp(`turn ${lostAt} lost$`));

  // Put right with an undo: winnable again, and the loss still named.
  await page.click('#shisen-undo');
  await analyse();
  assert.deepEqual(await strip(), [...Array(opening.length).fill('win'), 'lost', 'win']);
  assert.match(await page.textContent('#shisen-analysis-summary'), new RegExp(`^The board can still be cleared\\. It was lost at turn ${lostAt}\\.`));

  // Cleared, the game is recorded but not ranked: the analysis helped.
  const rest = JSON.parse(execFileSync(tesseraBin(), ['shisen', 'solve', '--json', await boardText(page)]).toString());
  for (const pair of rest.moves) await removePair(page, pair);
  await page.waitForSelector('#shisen-status:has-text("Cleared")');
  assert.match(await page.textContent('#shisen-status'), /not ranked — assisted/);
});
