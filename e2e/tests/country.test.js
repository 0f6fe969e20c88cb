// A player sets their country on their own profile: the flag shows beside
// their name, named by its code; a code that is no country is refused with
// the server's words and nothing changes. (What the server accepts:
// tests/it/records.rs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';
import { signUp, uniqueHandle } from './account.js';

let server, desk;
before(async () => { server = await startServer(); desk = await startBrowser(); });
after(async () => { await desk?.stop(); server?.stop(); });

test('a player sets their country on their profile, and a code that is none is refused', async () => {
  const page = await desk.context.newPage();
  const handle = uniqueHandle('flag');
  await page.goto(server.url);
  await signUp(page, handle);
  await page.goto(`${server.url}u/${handle}`);
  await page.waitForSelector('#profile-country-form:not([hidden])');
  await page.fill('#profile-country', 'nl');
  await page.click('#profile-country-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#profile-country-said').textContent.startsWith('Saved'));
  assert.equal(await page.textContent('#profile-country-said'), 'Saved: NL.');
  assert.equal(await page.getAttribute('#profile-title .flag', 'aria-label'), 'NL');

  await page.fill('#profile-country', 'XX');
  await page.click('#profile-country-form button[type=submit]');
  await page.waitForFunction(() => !document.querySelector('#profile-country-said').textContent.startsWith('Saved'));
  assert.match(await page.textContent('#profile-country-said'), /country|XX/i);
  await page.reload();
  await page.waitForSelector('#profile-title .flag');
  assert.equal(await page.getAttribute('#profile-title .flag', 'aria-label'), 'NL');

  // Someone else's profile has no form.
  const other = await startBrowser();
  try {
    const visitor = await other.context.newPage();
    await visitor.goto(`${server.url}u/${handle}`);
    await visitor.waitForSelector('#profile-title .flag');
    assert.ok(await visitor.isHidden('#profile-country-form'));
  } finally {
    await other.stop();
  }
  await page.close();
});
