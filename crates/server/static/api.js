// Talking to the server: JSON in, JSON out, errors as exceptions carrying
// the server's message.

async function call(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    // No answer at all: the network or the server is down. Dealing and
    // judging happen on the server, so the page says so (a11y.js).
    window.dispatchEvent(new Event('tessera:offline'));
    throw new Error('The server cannot be reached: check the connection and try again.');
  }
  window.dispatchEvent(new Event('tessera:online'));
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

export const post = (url, body) => call('POST', url, body);
export const get = (url) => call('GET', url);

// Answers can come back out of order: an older ask's answer that arrives
// after a newer one's must not paint over it. `asking(what)` marks a new
// ask about `what` (an element, or a name) and gives a check that is true
// while that ask is still the latest about it.
const asks = new Map();
export function asking(what) {
  const ask = (asks.get(what) ?? 0) + 1;
  asks.set(what, ask);
  return () => asks.get(what) === ask;
}

// Milliseconds as m:ss.t
export function clock(ms, tenths = true) {
  const s = Math.max(0, ms) / 1000;
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  const sec = tenths ? rest.toFixed(1).padStart(4, '0') : String(Math.floor(rest)).padStart(2, '0');
  return m > 0 ? `${m}:${sec}` : (tenths ? `${rest.toFixed(1)}s` : `0:${sec}`);
}

// Creates an element with text content only (never HTML), so names and
// other user text are always escaped.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}
