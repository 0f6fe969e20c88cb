// A rated race between two signed-in players, each in their own browser:
// one opens it with "Rated race" on the sliding puzzle's page, a guest is
// refused a seat, both race the 3x3, and each sees their new rating on the
// race page and on their profile; the winner's went up, the loser's down.
// The rankings page lists the pool's leaderboard. axe stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { bfs } from './puzzle.js';
import { noViolations } from './axe.js';
import { myTiles, click, hears, takeSeatSignedIn } from './racing.js';
import { signUp, uniqueHandle } from './account.js';

const GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0];

let server, ada, ben, guest;
before(async () => {
  server = await startServer();
  [ada, ben, guest] = [await startBrowser(), await startBrowser(), await startBrowser()];
});
after(async () => {
  for (const b of [ada, ben, guest]) await b?.stop();
  server?.stop();
});

async function playByHand(page, tiles, moves) {
  for (const m of moves) {
    tiles = await click(page, tiles, m);
    await page.waitForTimeout(250);
  }
  return tiles;
}

test('two signed-in players race rated and see their new ratings', async () => {
  const a = await ada.context.newPage();
  await a.goto(`${server.url}#slide&size=3x3&goal=row-major`);
  const adaHandle = uniqueHandle('ada');
  await signUp(a, adaHandle);
  await a.waitForSelector('#slide-board .tile');
  await a.click('#slide-race-rated');
  await a.waitForURL(/\/race\/[0-9a-f]+$/);
  const link = a.url();
  await a.waitForSelector('#race-players li.rated');
  assert.match(await a.textContent('#race-players li.rated'), /^Rated race \(Sliding 3x3\)/);
  await takeSeatSignedIn(a);

  // A guest may watch, not race.
  const g = await guest.context.newPage();
  await g.goto(link);
  await g.waitForSelector('#race-players li[data-player="1"]');
  await g.fill('#race-name', 'Gus');
  await g.click('#race-join-button');
  await g.waitForFunction(() => /only signed-in players may join/.test(document.querySelector('#race-status').textContent));
  await noViolations(g, 'a rated room refusing a guest');

  const b = await ben.context.newPage();
  await b.goto(server.url);
  const benHandle = uniqueHandle('ben');
  await signUp(b, benHandle);
  await b.goto(link);
  await takeSeatSignedIn(b);
  await a.waitForSelector('#race-players li[data-player="2"]');
  for (const page of [a, b]) await page.click('#race-ready');
  for (const page of [a, b]) await page.waitForSelector('#race-board .tile', { timeout: 8000 });
  for (const page of [a, b]) await hears(page, /^Go!$/);

  // Ada solves first, then Ben, both at a person's pace: two ranked solves.
  let ours = await myTiles(a);
  await a.waitForTimeout(400);
  ours = await playByHand(a, ours, bfs(ours, GOAL));
  assert.deepEqual(ours, GOAL);
  let his = await myTiles(b);
  his = await playByHand(b, his, bfs(his, GOAL));
  const table = (page) => page.$$eval('#race-table tbody tr', (rows) => rows.map((r) => [...r.cells].slice(0, 2).map((c) => c.textContent)));
  for (const page of [a, b]) {
    await page.waitForSelector('#race-results:not([hidden])');
    assert.deepEqual(await table(page), [['1st', adaHandle], ['2nd', benHandle]]);
  }

  // Each sees both new ratings, their own first: up for the winner, down
  // for the loser, by as much, both still provisional.
  for (const page of [a, b]) await page.waitForSelector('#race-rating:not([hidden])', { timeout: 15000 });
  const said = (page) => page.textContent('#race-rating');
  const adaSaid = await said(a);
  const benSaid = await said(b);
  const [, adaRating, up, benSeen] = adaSaid.match(new RegExp(`^Sliding 3x3 ratings: you \\(${adaHandle}\\) (\\d+)\\? \\(\\+(\\d+)\\); ${benHandle} (\\d+)\\? \\(−\\d+\\)$`)) ?? [];
  const [, benRating, down, adaSeen] = benSaid.match(new RegExp(`^Sliding 3x3 ratings: you \\(${benHandle}\\) (\\d+)\\? \\(−(\\d+)\\); ${adaHandle} (\\d+)\\? \\(\\+\\d+\\)$`)) ?? [];
  assert.ok(benSeen === benRating && adaSeen === adaRating, `${adaSaid} / ${benSaid}`);
  assert.ok(adaRating && benRating, `${adaSaid} / ${benSaid}`);
  assert.ok(Number(up) > 0 && Number(up) === Number(down), `${adaSaid} / ${benSaid}`);
  assert.equal(Number(adaRating) + Number(benRating), 3000, 'two new players move symmetrically');
  await noViolations(a, 'a rated race\'s results with the new rating');

  // The profile shows the rating and its history.
  await a.goto(`${server.url}u/${adaHandle}`);
  await a.waitForSelector('.pb-graph[aria-label^="rating history in Sliding 3x3"]');
  const row = await a.$$eval('table.records caption', (cs) => cs.map((c) => c.textContent));
  assert.ok(row.some((c) => c.startsWith('Ratings in rated races')), row.join(' | '));
  assert.match(await a.textContent('table.records tbody tr td:nth-child(2)'), new RegExp(`^${adaRating}\\?$`));
  await noViolations(a, 'a profile with a rating');

  // The rankings page shows the leaderboards: nobody settled yet.
  await a.goto(`${server.url}rankings`);
  await a.waitForFunction(() => /No settled rating in Sliding 3x3 yet/.test(document.querySelector('#ratings-board').textContent));
  await noViolations(a, 'the rating leaderboards');
});
