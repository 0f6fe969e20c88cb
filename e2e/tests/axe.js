// axe-core in a page: every rule it runs by default, WCAG 2.2 AA included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './harness.js';

const AXE = readFileSync(join(repo, 'e2e', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

// Runs axe-core on the page as it is and fails with each violation and
// where it is.
export async function noViolations(page, what) {
  await page.waitForTimeout(150); // let transitions end: contrast is read from the screen
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const found = result.violations.map((v) =>
    `${v.id} (${v.impact}) on ${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  assert.deepEqual(found, [], `${what}:\n${found.join('\n')}`);
}
