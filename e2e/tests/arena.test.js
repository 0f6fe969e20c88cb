// The arenas' pages as a signed-in player meets them: the list with the
// server's hourly arenas, an arena made with the form, joined, and its
// standings live (a second entrant, joining through the API from another
// browser, appears without a reload, and the two are paired); axe-core
// finds no violation on either page. (Pairing and points:
// tests/it/arenas.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { noViolations } from './axe.js';
import { signUp, uniqueHandle } from './account.js';

let server, desk, other;
before(async () => { server = await startServer(); desk = await startBrowser(); other = await startBrowser(); });
after(async () => { await desk?.stop(); await other?.stop(); server?.stop(); });

test('an arena made, joined and watched live', async () => {
  const page = await desk.context.newPage();
  await page.goto(server.url);
  const me = uniqueHandle('ar');
  await signUp(page, me);
  await page.goto(`${server.url}arenas`);
  await page.waitForSelector('#arena-list table');
  await page.waitForSelector('#arena-lobby table');
  assert.ok(await page.locator('#arena-list tbody tr').count() >= 1, 'the hourly arenas are listed');
  await noViolations(page, 'the arenas list');

  await page.selectOption('#arena-pool', 'slide-3x3');
  await page.fill('#arena-minutes', '15');
  await page.click('#arena-form button[type=submit]');
  await page.waitForURL(/\/arena\/[^/]+$/);
  await page.waitForSelector('#arena-title:has-text("slide-3x3")');
  await page.click('#arena-join');
  await page.waitForSelector(`#arena-standings td:has-text("${me}")`);
  await noViolations(page, 'an arena with its standings');

  // A second entrant, from another browser: the first page shows them
  // without a reload, and the arena pairs the two into a race.
  const second = await other.context.newPage();
  await second.goto(server.url);
  const rival = uniqueHandle('rv');
  await signUp(second, rival);
  const arena = new URL(page.url()).pathname.split('/arena/')[1];
  const status = await second.evaluate(async (id) => (await fetch(`/api/arenas/${id}/join`, { method: 'POST' })).status, arena);
  assert.equal(status, 204);
  await page.waitForURL(/\/race\/.+\?arena=/);
  await page.waitForSelector('.arena-back a');
  await page.close();
  await second.close();
});
