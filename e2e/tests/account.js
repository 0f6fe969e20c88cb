// Signing up and in through the page's account form, as a person would.
import assert from 'node:assert/strict';

export const PASSWORD = 'correct horse battery staple 42';

// A handle no other test uses: 3–20 characters of A–Z a–z 0–9 _ -.
let count = 0;
export function uniqueHandle(prefix) {
  count += 1;
  return `${prefix}_${(Date.now() % 1e8).toString(36)}${count}`.slice(0, 20);
}

// Fills the form and presses Sign up (or Sign in); waits for the handle to
// show in the header.
export async function enter(page, handle, action = 'signup', password = PASSWORD) {
  await page.waitForSelector('#account-guest:not([hidden])');
  if (!(await page.locator('#account-dialog[open]').count())) await page.click('#account-open');
  await page.fill('#account-handle', handle);
  await page.fill('#account-password', password);
  await page.click(action === 'signup' ? '#account-signup' : '#account-login');
  await page.waitForSelector('#account-user:not([hidden])');
  assert.equal(await page.textContent('#account-name'), handle);
}

export const signUp = (page, handle) => enter(page, handle, 'signup');
export const signIn = (page, handle) => enter(page, handle, 'login');
