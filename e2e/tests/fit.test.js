// Boards that fit: on common laptop and desktop screens the whole board of
// every Shisen-Sho preset and of every sliding-puzzle size from 3×3 to 10×10
// is inside the window as the page opens, with no scrolling.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, startBrowser } from './harness.js';

let server, chromium;
before(async () => { server = await startServer(); chromium = await startBrowser(); });
after(async () => { await chromium?.stop(); server?.stop(); });

const SCREENS = [[1280, 800], [1366, 768], [1920, 1080]];
const PRESETS = ['14x6', '16x9', '18x8', '24x12', '26x14', '30x16'];

async function assertInside(page, selector, what) {
  const box = await page.locator(selector).boundingBox();
  const view = await page.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight, y: window.scrollY }));
  assert.equal(view.y, 0, `${what}: the page opened scrolled`);
  assert.ok(box.x >= 0 && box.y >= 0, `${what}: board at ${box.x},${box.y}`);
  assert.ok(box.x + box.width <= view.w, `${what}: board ends at x ${box.x + box.width} > ${view.w}`);
  assert.ok(box.y + box.height <= view.h, `${what}: board ends at y ${box.y + box.height} > ${view.h}`);
}

for (const [width, height] of SCREENS) {
  test(`every Shisen-Sho preset fits a ${width}x${height} window`, async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width, height });
    for (const preset of PRESETS) {
      await page.goto(`${server.url}#shisen&preset=${preset}&gravity=0&chinese=0&seed=1`);
      await page.waitForSelector('#shisen-board .stile');
      await assertInside(page, '#shisen-board', `${preset} at ${width}x${height}`);
      await page.goto('about:blank');
    }
    await page.close();
  });

  test(`every sliding puzzle from 3x3 to 10x10 fits a ${width}x${height} window`, async () => {
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width, height });
    for (let n = 3; n <= 10; n++) {
      await page.goto(`${server.url}#slide&size=${n}x${n}&goal=row-major&seed=1`);
      await page.waitForFunction((cells) => document.querySelectorAll('#slide-board .tile').length === cells, n * n - 1);
      await assertInside(page, '#slide-board', `${n}x${n} at ${width}x${height}`);
      await page.goto('about:blank');
    }
    await page.close();
  });
}
