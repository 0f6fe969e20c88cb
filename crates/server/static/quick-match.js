// "Play rated": waits in a rating pool's queue until the server pairs the
// player with others of close rating, then goes to the rated race's page.
// The queue is the server's (`/api/seeks`); this page only asks after its
// seek twice a second, which is also what keeps it in the queue.

import { get, post } from './api.js';

const ASK_EVERY_MS = 500;

// The pool the sliding puzzle's size and goal race in, or null.
export function slidePool(size, goal) {
  return ['3x3', '4x4', '5x5'].includes(size) && goal === 'row-major' ? `slide-${size}` : null;
}

// Wires `button` to wait in the pool `poolOf()` names, telling `status`
// how it goes; pressed again while waiting, it cancels.
export function playRated(button, status, poolOf) {
  let waiting = null;
  const say = (text, kind = '') => {
    status.textContent = text;
    status.className = `status ${kind}`.trim();
  };
  const stop = async (cancel) => {
    clearTimeout(waiting);
    waiting = null;
    button.textContent = 'Play rated';
    button.setAttribute('aria-pressed', 'false');
    if (cancel) {
      await fetch('/api/seeks', { method: 'DELETE' }).catch(() => {});
      say('No longer waiting for a rated race.');
    }
  };
  const ask = async () => {
    try {
      const seek = await get('/api/seeks');
      if (seek.url) {
        await stop(false);
        say('Paired: joining the race…');
        location.assign(seek.url);
        return;
      }
      say(`Looking for players rated within ${Math.round(seek.window)} of you in ${seek.pool}… (${Math.round(seek.waited / 1000)} s)`);
      waiting = setTimeout(ask, ASK_EVERY_MS);
    } catch (e) {
      await stop(false);
      say(`Rated play stopped: ${e.message}`, 'error');
    }
  };
  button.addEventListener('click', async () => {
    if (waiting !== null) {
      await stop(true);
      return;
    }
    const pool = poolOf();
    if (!pool) {
      say('Rated races are 3×3, 4×4 and 5×5 to row-major order, and classic 18×8 Shisen-Sho.', 'error');
      return;
    }
    try {
      await post('/api/seeks', { pool });
    } catch (e) {
      say(e.status === 401 ? 'Sign in to play rated: guests race a friend instead.' : `Cannot play rated: ${e.message}`, 'error');
      return;
    }
    button.textContent = 'Cancel rated';
    button.setAttribute('aria-pressed', 'true');
    waiting = setTimeout(ask, 0);
  });
}
