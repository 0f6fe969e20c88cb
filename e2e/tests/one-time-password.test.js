// An operator resets a password: signing in with the one-time password it
// prints, the page asks at once for a password of the player's own (the
// focus moves into the prompt, which reloading brings back), and the new
// one works from then on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, startBrowser, tesseraBin } from './harness.js';
import { noViolations } from './axe.js';
import { PASSWORD, enter, signUp, uniqueHandle } from './account.js';

let server, browser;
before(async () => { server = await startServer(); browser = await startBrowser(); });
after(async () => { await browser?.stop(); server?.stop(); });

test('a one-time password is replaced before anything else', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}#slide&size=3x3&seed=5`);
  const handle = uniqueHandle('Reset');
  await signUp(page, handle);
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const out = execFileSync(tesseraBin(), ['admin', 'users', 'reset-password', handle, '--db', server.db],
    { encoding: 'utf8', env });
  const oneTime = out.split(/\s+/).find((w) => /^[a-z0-9]{5}(-[a-z0-9]{5}){3}$/i.test(w));
  assert.ok(oneTime, `no one-time password in ${out}`);

  // The reset ended the session: sign in again with the one-time password.
  await page.reload();
  await enter(page, handle, 'login', oneTime);
  const prompt = page.locator('#new-password');
  await prompt.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'new-password-new',
    'the focus moves to the new password (the one-time one is filled in)');
  assert.equal(await page.inputValue('#new-password-current'), oneTime);
  assert.equal(await page.getAttribute('#new-password-new', 'autocomplete'), 'new-password');
  await noViolations(page, 'the one-time password prompt');

  // Reloading brings it back, empty: nothing else works until the change.
  await page.reload();
  await prompt.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'new-password-current');
  await page.keyboard.press('Escape');
  assert.ok(await prompt.isVisible(), 'Escape dismissed the prompt');
  await page.fill('#new-password-current', oneTime);
  await page.fill('#new-password-new', 'password1234');
  await page.click('#new-password-save');
  await page.waitForSelector('#new-password-message:has-text("too easy to guess")');
  await page.fill('#new-password-new', PASSWORD);
  await page.click('#new-password-save');
  await prompt.waitFor({ state: 'hidden' });
  const me = await page.evaluate(() => fetch('/api/account').then((r) => r.json()));
  assert.equal(me.must_change_password, false);
  await page.reload();
  await page.waitForSelector('#account-user:not([hidden])');
  assert.equal(await prompt.isVisible(), false);
});
