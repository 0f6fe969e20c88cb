// The time from a pointer event to the frame that shows the move it made,
// under hover control, on boards of several sizes (scripts/bench-page).
// Measured in the page: the event's timeStamp; the first change of the
// board's DOM after it (the app redraws hover moves in an animation
// frame); and the start of the next animation frame after that change,
// which is when the frame holding the change has been presented.
//
//   node e2e/bench/pointer-to-frame.js [MOVES] [SIZE...]
import { startServer, startBrowser } from '../tests/harness.js';
import { readTiles } from '../tests/puzzle.js';

const moves = Number(process.argv[2] || 300);
const sizes = process.argv.length > 3 ? process.argv.slice(3) : ['4x4', '10x10', '20x20', '32x32'];

// Installed in the page before the app's own handlers see the event.
function instrument() {
  const board = document.getElementById('slide-board');
  window.__samples = [];
  let pending = null;
  board.addEventListener('pointermove', (e) => { pending = { event: e.timeStamp }; }, { capture: true });
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
  for (const size of sizes) {
    const [w, h] = size.split('x').map(Number);
    const page = await chromium.context.newPage();
    await page.goto(`${server.url}#slide&size=${size}&goal=row-major&seed=2026&control=hover`);
    await page.waitForSelector('#slide-board .tile');
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
      size, moves: samples.length,
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
console.log('| board | moves | event → DOM p50 | event → DOM p95 | event → frame p50 | event → frame p95 | max | p95 within 16.7 ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(`| ${r.size} | ${r.moves} | ${ms(r.drawnP50)} | ${ms(r.drawnP95)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ${r.p95 <= 16.7 ? 'yes' : 'no'} |`);
}
