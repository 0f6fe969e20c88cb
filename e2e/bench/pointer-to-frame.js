// The time from a pointer event to the frame that shows the move it made,
// under hover control, on boards of several sizes (scripts/bench-page).
// Measured in the page: the event's timeStamp; the first change of the
// board's DOM after it (the app redraws hover moves in an animation
// frame); and the start of the next animation frame after that change,
// which is when the frame holding the change has been presented.
//
//   node e2e/bench/pointer-to-frame.js [--baseline REV] [MOVES] [SIZE...]
//
// With --baseline, each size is measured twice in the same run, the same
// server answering both: first with the page's files (crates/server/static)
// as git revision REV has them, then as the working tree has them, both
// served in place of the binary's; the table gives both and their ratio.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, startBrowser, repo } from '../tests/harness.js';
import { readTiles } from '../tests/puzzle.js';

const args = process.argv.slice(2);
let baseline = null;
if (args[0] === '--baseline') { baseline = args[1]; args.splice(0, 2); }
const moves = Number(args[0] || 300);
const sizes = args.length > 1 ? args.slice(1) : ['4x4', '10x10', '20x20', '32x32'];

const TYPES = { js: 'text/javascript', css: 'text/css', html: 'text/html', svg: 'image/svg+xml', json: 'application/json' };
// Serves the page's files as git revision `rev` has them, or the working
// tree (`rev` null); a file they lack comes from the binary.
async function servePageOf(page, rev) {
  await page.route('**/static/**', (route) => {
    const name = new URL(route.request().url()).pathname.replace('/static/', '');
    const path = `crates/server/static/${name}`;
    let body;
    try {
      body = rev ? execFileSync('git', ['-C', repo, 'show', `${rev}:${path}`], { stdio: ['ignore', 'pipe', 'ignore'] })
        : readFileSync(join(repo, path));
    } catch { return route.continue(); }
    return route.fulfill({ body, contentType: TYPES[name.split('.').pop()] ?? 'application/octet-stream' });
  });
}

// Installed in the page before the app's own handlers see the event.
function instrument() {
  const board = document.getElementById('slide-board');
  window.__samples = [];
  let pending = null;
  // The page may read the pointer from `pointerrawupdate` (as it arrives)
  // or `pointermove` (at the next frame): the first of the two for one
  // movement starts the clock, at the movement's own time.
  let last = null;
  const start = (e) => {
    if (e.timeStamp === last) return;
    last = e.timeStamp;
    pending = { event: e.timeStamp };
  };
  board.addEventListener('pointerrawupdate', start, { capture: true });
  board.addEventListener('pointermove', start, { capture: true });
  new MutationObserver(() => {
    const p = pending;
    if (!p || p.changed) return;
    p.changed = performance.now();
    requestAnimationFrame((frame) => {
      p.presented = frame;
      window.__samples.push(p);
    });
    pending = null;
  }).observe(board, { subtree: true, attributes: true, childList: true });
}

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

const server = await startServer();
const chromium = await startBrowser();
const rows = [];
try {
  for (const [size, rev] of sizes.flatMap((size) => (baseline ? [[size, baseline], [size, null]] : [[size, null]]))) {
    const [w, h] = size.split('x').map(Number);
    const page = await chromium.context.newPage();
    if (baseline) await servePageOf(page, rev);
    await page.goto(`${server.url}#slide&size=${size}&goal=row-major&seed=2026&control=hover`);
    // Tiles as elements, or a big board's canvas beside its grid of cells.
    await page.waitForSelector('#slide-board .tile, #slide-board canvas');
    const box = await page.locator('#slide-board').boundingBox();
    const pad = await page.$eval('#slide-board', (b) => b.clientLeft + parseFloat(getComputedStyle(b).paddingLeft));
    const cell = (box.width - 2 * pad) / w;
    const centre = (c) => [box.x + pad + (c % w + 0.5) * cell, box.y + pad + (Math.floor(c / w) + 0.5) * cell];
    let tiles = await readTiles(page, w * h);
    await page.mouse.move(...centre(tiles.indexOf(0)));
    await page.waitForTimeout(300);
    await page.evaluate(instrument);
    // A walk of the blank to a random neighbour each time, never straight
    // back; each move is seen on the page before the next.
    let seed = 12345, last = -1;
    const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let i = 0; i < moves; i++) {
      const b = tiles.indexOf(0);
      const next = [b - w, b + w, b - 1, b + 1].filter((c, k) =>
        c >= 0 && c < w * h && c !== last && (k < 2 || Math.floor(c / w) === Math.floor(b / w)));
      const c = next[random(next.length)];
      await page.mouse.move(...centre(c));
      [tiles[b], tiles[c]] = [tiles[c], 0];
      last = b;
      await page.waitForFunction((n) => window.__samples.length >= n, i + 1);
    }
    const samples = await page.evaluate(() => window.__samples);
    const total = samples.map((s) => s.presented - s.event);
    const drawn = samples.map((s) => s.changed - s.event);
    const row = {
      size, page: rev ?? 'working tree', moves: samples.length,
      canvas: (await page.$('#slide-board canvas')) !== null,
      drawnP50: quantile(drawn, 0.5), drawnP95: quantile(drawn, 0.95),
      p50: quantile(total, 0.5), p95: quantile(total, 0.95), max: Math.max(...total),
    };
    rows.push(row);
    console.error(JSON.stringify(row));
    await page.close();
  }
} finally {
  await chromium.stop();
  server.stop();
}
const ms = (x) => x.toFixed(1);
// BENCHMARKS.md's table, as it reads there: a row a board, the baseline's
// columns (with --baseline) beside the working tree's.
const heads = ['board', ...(baseline ? ['baseline event → frame p50', 'baseline **p95**'] : []),
  'now event → DOM p95', 'now event → frame p50', 'now **p95**', 'max', 'now p95 ≤ 16.7 ms',
  ...(baseline ? ['p95 ÷ baseline'] : [])];
console.log(`| ${heads.join(' | ')} |`);
console.log(`|${heads.map((h) => (h.includes('≤') || h === 'board' ? '---|' : '---:|')).join('')}`);
for (const r of rows.filter((r) => r.page === 'working tree')) {
  const base = rows.find((b) => b.size === r.size && b.page !== 'working tree');
  const cells = [`${r.size}${r.canvas ? ' (canvas)' : ''}`, ...(base ? [ms(base.p50), `**${ms(base.p95)}**`] : []),
    ms(r.drawnP95), ms(r.p50), `**${ms(r.p95)}**`, ms(r.max), r.p95 <= 16.7 ? 'yes' : 'no',
    ...(base ? [(r.p95 / base.p95).toFixed(2)] : [])];
  console.log(`| ${cells.join(' | ')} |`);
}
