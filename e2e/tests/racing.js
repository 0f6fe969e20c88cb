// What the race tests do on a race page: read the player's own board,
// click a tile, wait for the live region, take a seat.
import assert from 'node:assert/strict';
import { SOURCE, step } from './puzzle.js';

// The player's own board, cell by cell (0 = blank).
export async function myTiles(page) {
  const placed = await page.$$eval('#race-board .tile', (els) => els.map((e) => [Number(e.dataset.tile), Number(e.dataset.cell)]));
  const tiles = Array(placed.length + 1).fill(0);
  for (const [t, c] of placed) tiles[c] = t;
  return tiles;
}

// Clicks the tile that `move` slides on the page's own board.
export async function click(page, tiles, move) {
  const b = tiles.indexOf(0);
  const [dx, dy] = SOURCE[move];
  await page.click(`#race-board .tile[data-cell="${(Math.floor(b / 3) + dy) * 3 + (b % 3) + dx}"]`);
  return step(tiles, 3, 3, move);
}

// Waits until the page's live region says something matching `pattern`.
export const hears = (page, pattern) => page.waitForFunction(
  (source) => new RegExp(source).test(document.querySelector('#race-said').textContent), pattern.source);

// A signed-in player takes a seat under their handle: one click, no name.
export async function takeSeatSignedIn(page) {
  await page.waitForSelector('#race-join-button:has-text("Join the race as")');
  assert.ok(!(await page.isVisible('#race-name')), 'a signed-in player is asked for no name');
  await page.click('#race-join-button');
  await page.waitForSelector('#race-ready:not([hidden])');
}

// Takes a seat as `name`; a signed-in player is asked for none.
export async function takeSeat(page, name) {
  if (await page.isVisible('#race-name')) await page.fill('#race-name', name);
  await page.click('#race-join-button');
  await page.waitForSelector('#race-ready:not([hidden])');
}
