// The header's account area (header.js writes it): sign in or up, the
// player's name, sign out; and the prompt to replace an operator's
// one-time password. Every change of account is told to the page as a
// `tessera:account` event (its detail the account, or null): a sign-in
// moves this browser's guest results to it, so pages show them again.
import { get, post } from './api.js';

const $ = (id) => document.getElementById(id);

// How a sign-in goes, and why it failed, in the sign-in dialog.
function message(text, kind = '') {
  $('account-message').textContent = text;
  $('account-message').className = `account-message ${kind}`;
}

// What came of it, once the dialog is closed: a note in the window's
// corner, over nothing that moves, gone after a few seconds.
let saidTimer = null;
function said(text) {
  clearTimeout(saidTimer);
  $('account-said').textContent = text;
  if (text) saidTimer = setTimeout(() => said(''), 6000);
}

function show(account) {
  $('account-guest').hidden = account !== null;
  $('account-user').hidden = account === null;
  $('account-name').textContent = account ? account.handle : '';
  $('account-profile').href = account ? `/u/${encodeURIComponent(account.handle)}` : '/';
  if (account && $('account-dialog').open) $('account-dialog').close();
}

// Signed in with an operator's one-time password, nothing else works until
// the player chooses their own: a modal prompt asks for it at once (focus
// moves into it), filled with the one-time password when it was just typed.
function askForNewPassword(account, oneTime = '') {
  const dialog = $('new-password');
  if (!account || !account.must_change_password) {
    if (dialog.open) dialog.close();
    return;
  }
  $('new-password-current').value = oneTime;
  $('new-password-new').value = '';
  $('new-password-message').textContent = '';
  if (!dialog.open) dialog.showModal();
  (oneTime ? $('new-password-new') : $('new-password-current')).focus();
}

let current = null;

function changed(account, oneTime = '') {
  current = account;
  show(account);
  askForNewPassword(account, oneTime);
  window.dispatchEvent(new CustomEvent('tessera:account', { detail: account }));
}

async function setNewPassword(event) {
  event.preventDefault();
  const save = $('new-password-save');
  save.disabled = true;
  try {
    await post('/api/account/password', {
      current: $('new-password-current').value,
      new: $('new-password-new').value,
    });
    $('new-password-current').value = '';
    $('new-password-new').value = '';
    $('new-password').close();
    said('Your password is set. Your results here are now in your account.');
    changed((await get('/api/session')).account);
  } catch (e) {
    $('new-password-message').textContent = e.message;
    $('new-password-new').focus();
  } finally {
    save.disabled = false;
  }
}

async function signIn(event) {
  event.preventDefault();
  const action = event.submitter && event.submitter.value === 'signup' ? 'signup' : 'login';
  const buttons = document.querySelectorAll('#account-form button');
  for (const b of buttons) b.disabled = true;
  message(action === 'signup' ? 'Signing up…' : 'Signing in…');
  try {
    const password = $('account-password').value;
    const account = await post(`/api/account/${action}`, {
      handle: $('account-handle').value.trim(),
      password,
    });
    $('account-password').value = '';
    message('');
    said(action === 'signup' ? 'Welcome! Your results here are now in your account.' : `Signed in as ${account.handle}.`);
    changed(account, account.must_change_password ? password : '');
  } catch (e) {
    message(e.message, 'error');
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

// Signs out here, or on every device (the profile page offers that).
export async function signOut(everywhere = false) {
  try {
    await post(everywhere ? '/api/account/logout-all' : '/api/account/logout');
    said(everywhere ? 'Signed out on every device.' : 'Signed out.');
    changed(null);
  } catch (e) {
    said(e.message);
  }
}

// The account the page was opened with (null for a guest, or offline),
// asked once for every script of the page.
export const signedIn = (async () => {
  try { return (await get('/api/session')).account; } catch { return null; }
})();

// The account now, after any sign-in or out since the page opened.
export const account = () => current;

$('account-open').addEventListener('click', () => {
  message('');
  $('account-dialog').showModal();
  $('account-handle').focus();
});
$('account-cancel').addEventListener('click', () => $('account-dialog').close());
$('account-form').addEventListener('submit', signIn);
$('account-logout').addEventListener('click', () => signOut(false));
$('new-password-form').addEventListener('submit', setNewPassword);
$('new-password-logout').addEventListener('click', () => signOut(false));
// Escape does not dismiss the prompt: the account can do nothing else
// until the change, and "Sign out" is the way out.
$('new-password').addEventListener('cancel', (e) => e.preventDefault());
signedIn.then((first) => {
  current = first;
  show(first);
  askForNewPassword(first);
});
