// Runs the page's rule functions (static/rules.js) on the cases the
// engines computed (a JSON file named on the command line) and prints every
// disagreement; exits 1 if there is any. Driven by client_rules.rs.
import { readFileSync } from 'node:fs';
import { applyMove, movesToward, mtmCount, score, matchClass } from '../../static/rules.js';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const failures = [];
const same = (what, got, want) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
};

for (const c of cases.moves) {
  const tiles = c.tiles.slice();
  const legal = applyMove(tiles, c.w, c.h, c.letter);
  same(`move ${c.letter} on ${c.tiles}`, legal ? tiles : null, c.after);
}
for (const c of cases.slides) same(`slide to ${c.cell} on ${c.tiles}`, movesToward(c.tiles, c.w, c.cell).join(''), c.moves);
for (const c of cases.mtm) same(`mtm of ${c.moves}`, mtmCount(c.moves), c.mtm);
for (const c of cases.scores) same(`score ${JSON.stringify(c)}`, score(c.start, c.left, c.secs, c.help, c.gravity), c.score);
for (const c of cases.classes) same(`class of ${c.kind} (chinese ${c.chinese})`, matchClass(c.kind, c.chinese), c.class);

const total = ['moves', 'slides', 'mtm', 'scores', 'classes'].reduce((n, k) => n + cases[k].length, 0);
if (failures.length) {
  console.log(failures.slice(0, 20).join('\n'));
  console.log(`${failures.length} of ${total} cases disagree`);
  process.exit(1);
}
console.log(`all ${total} cases agree`);
