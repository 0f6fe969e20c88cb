// A race the arena paired, opened as /race/{room}?arena={id}: while the
// page is open its player stays in the arena (joining again every few
// seconds), a link leads back to the arena's standings, and once the
// arena pairs them into their next race the page goes there.
import { get, post, el } from './api.js';

const EVERY_MS = 2000;

export function followArena() {
  const arena = new URLSearchParams(location.search).get('arena');
  if (!arena) return;
  const base = `/api/arenas/${encodeURIComponent(arena)}`;
  const back = el('p', { class: 'arena-back' }, el('a', { href: `/arena/${encodeURIComponent(arena)}`, text: 'Back to the arena' }));
  document.querySelector('main')?.prepend(back);
  const here = location.pathname;
  const tick = async () => {
    try {
      await post(`${base}/join`);
      const view = await get(base);
      if (view.my_race && view.my_race !== here) {
        location.assign(`${view.my_race}?arena=${encodeURIComponent(arena)}`);
        return;
      }
      if (view.state !== 'finished') setTimeout(tick, EVERY_MS);
    } catch {
      setTimeout(tick, EVERY_MS * 2);
    }
  };
  tick();
}
