// The site's header, the same on every page: both games, the records and
// the other ways to play, the colour scheme (and the keys, on pages with a
// board), and the account area. A classic script placed first in <body>:
// it writes the header before the page first paints, so nothing moves when
// it appears. `data-keys` on the script tag adds the Keys button (the page
// has a `#keys` dialog). The account area's behaviour is account.js.
// On a phone the header is one row: the pages, the colour scheme and the
// keys fold into a menu under the Menu button, the account area shrinks
// to a short button or the player's name and a sign-out icon.
(() => {
  const script = document.currentScript;
  const links = [
    ['/#slide', 'Sliding puzzle', 'slide'],
    ['/#shisen', 'Shisen-Sho', 'shisen'],
    ['/#records', 'Records', 'records'],
    ['/rankings', 'Rankings'],
    ['/fmc', 'Fewest moves'],
    ['/time-attack', 'Time attack'],
    ['/arenas', 'Arenas'],
  ];
  // The page the player is on: the main page's by its hash, an arena's
  // under Arenas.
  const path = location.pathname === '/' ? `/#${(location.hash.slice(1).split('&')[0]) || 'slide'}`
    : location.pathname.startsWith('/arena/') ? '/arenas' : location.pathname;
  const nav = links.map(([href, text, page]) => {
    const here = href === path ? ' class="active" aria-current="page"' : '';
    return `<a href="${href}"${page ? ` data-page="${page}"` : ''}${here}>${text}</a>`;
  }).join('');
  const keys = script.hasAttribute('data-keys')
    ? '<button type="button" id="keys-open" aria-haspopup="dialog" title="Keyboard keys (?)">Keys</button>' : '';
  script.insertAdjacentHTML('beforebegin', `<header class="site-header">
  <h1><a href="/">tessera</a></h1>
  <button type="button" id="site-menu-open" class="site-menu-open" aria-expanded="false" aria-controls="site-menu"><span aria-hidden="true">&#9776;</span> Menu</button>
  <div id="site-menu" class="site-menu">
    <nav aria-label="Site">${nav}</nav>
    <div class="header-tools">
      <button type="button" id="theme-toggle" aria-pressed="false">Dark theme</button>${keys}
    </div>
  </div>
  <div id="account" class="account">
    <div id="account-guest" hidden>
      <button type="button" id="account-open" aria-haspopup="dialog"><span class="wide">Sign in / Sign up</span><span class="narrow">Sign in</span></button>
    </div>
    <div id="account-user" class="account-user" hidden>
      <a id="account-profile" href="/" title="Your profile"><span class="sr-only">Signed in as </span><strong id="account-name"></strong></a>
      <button type="button" id="account-logout" aria-label="Sign out" title="Sign out"><span class="wide">Sign out</span><span class="narrow" aria-hidden="true">&#x23FB;</span></button>
    </div>
  </div>
</header>
<p id="account-said" class="account-said" role="status" aria-live="polite"></p>
<dialog id="account-dialog" class="account-dialog" aria-labelledby="account-title">
  <form id="account-form" class="account-form">
    <h2 id="account-title">Sign in or sign up</h2>
    <label>Handle <input id="account-handle" name="handle" required maxlength="20" autocomplete="username" autocapitalize="off" spellcheck="false"></label>
    <label>Password <input id="account-password" name="password" type="password" required maxlength="128" autocomplete="current-password"></label>
    <div class="account-buttons">
      <button type="submit" id="account-login" value="login">Sign in</button>
      <button type="submit" id="account-signup" value="signup">Sign up</button>
      <button type="button" id="account-cancel">Cancel</button>
    </div>
    <p class="account-note">Records need an account: sign in to be ranked and to keep your history on any device. Your results on this browser move to the account.</p>
    <p id="account-message" class="account-message" role="status" aria-live="polite"></p>
  </form>
</dialog>
<dialog id="new-password" class="new-password" aria-labelledby="new-password-title" aria-describedby="new-password-why">
  <form id="new-password-form" class="account-form">
    <h2 id="new-password-title">Choose your own password</h2>
    <p id="new-password-why">You signed in with a one-time password from the site's operator. Choose a password of your own before anything else: until then your results are a guest's, not ranked under your account.</p>
    <label>One-time password <input id="new-password-current" name="current" type="password" required maxlength="128" autocomplete="current-password"></label>
    <label>New password <input id="new-password-new" name="new" type="password" required minlength="10" maxlength="128" autocomplete="new-password" aria-describedby="new-password-rule"></label>
    <p id="new-password-rule" class="account-note">10 to 128 characters, hard to guess: a few unrelated words work well.</p>
    <p id="new-password-message" class="new-password-message" role="alert"></p>
    <div class="account-buttons">
      <button type="submit" id="new-password-save">Set password</button>
      <button type="button" id="new-password-logout">Sign out</button>
    </div>
  </form>
</dialog>`);
  // The phone's menu: opened and closed by its button, closed by Escape,
  // by a click elsewhere or on one of its links.
  const header = document.querySelector('header.site-header');
  const open = document.getElementById('site-menu-open');
  const fold = (opened) => {
    header.classList.toggle('menu-open', opened);
    open.setAttribute('aria-expanded', String(opened));
  };
  open.addEventListener('click', () => fold(!header.classList.contains('menu-open')));
  document.getElementById('site-menu').addEventListener('click', (e) => { if (e.target.closest('a')) fold(false); });
  document.addEventListener('click', (e) => { if (!header.contains(e.target)) fold(false); });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && header.classList.contains('menu-open')) {
      fold(false);
      open.focus();
    }
  });
  import('/static/account.js');
})();
