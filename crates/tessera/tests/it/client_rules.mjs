// Runs the page's rule functions (static/rules.js) on the cases the
// engines computed (a JSON file named on the command line) and prints every
// disagreement; exits 1 if there is any. Driven by client_rules.rs.
import { readFileSync } from 'node:fs';
import { applyMove, movesToward, mtmCount, readMoves, score, matchClass, DISPLAYS, recentOf, shownCells } from '../../../server/static/rules.js';

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
for (const c of cases.notation) {
  const read = readMoves(c.text);
  same(`moves read from ${JSON.stringify(c.text)}`, read.error ? null : read.letters.join(''), c.letters);
}
for (const c of cases.scores) same(`score ${JSON.stringify(c)}`, score(c.start, c.left, c.secs, c.help, c.gravity), c.score);
for (const c of cases.classes) same(`class of ${c.kind} (chinese ${c.chinese})`, matchClass(c.kind, c.chinese), c.class);

// Every display the page offers on every board, cell by cell; the page's
// own history (replayed from the start) must reach the same position.
const asCompared = (c) => (c === null ? null : [c.text, c.hidden, c.tint, c.arrow, c.opacity]);
same('the displays the page offers', DISPLAYS.map(([name]) => name), Object.keys(cases.displays[0].shown));
for (const c of cases.displays) {
  const recent = recentOf(c.start, c.goal, c.w, [...c.moves]);
  for (const [display] of DISPLAYS) {
    same(`${display} on ${c.now} (w ${c.w}, goal ${c.goal}, from ${c.start} by ${c.moves})`,
      shownCells(display, c.now, c.goal, c.w, recent).map(asCompared), c.shown[display]);
  }
}

// A board counts once for each display it is shown under.
const total = ['moves', 'slides', 'mtm', 'notation', 'scores', 'classes'].reduce((n, k) => n + cases[k].length, 0)
  + cases.displays.length * DISPLAYS.length;
if (failures.length) {
  console.log(failures.slice(0, 20).join('\n'));
  console.log(`${failures.length} of ${total} cases disagree`);
  process.exit(1);
}
console.log(`all ${total} cases agree`);
