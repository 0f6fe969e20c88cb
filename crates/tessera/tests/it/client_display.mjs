// Carries every display move by move as the page does while a game is
// played (static/display.js, CarriedDisplay), on the boards the engines
// computed (a JSON file named on the command line): after each move the
// carried cells must be what working out the whole board again gives, and
// after the last what play::display computed. Prints every disagreement;
// exits 1 if there is any. Driven by client_rules.rs.
import { readFileSync } from 'node:fs';
import { DISPLAYS, recentOf, shownCells, CarriedDisplay } from '../../../server/static/rules.js';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const failures = [];
let compared = 0;
const same = (what, got, want) => {
  compared += 1;
  if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
};
const asCompared = (c) => (c === null ? null : [c.text, c.hidden, c.tint, c.arrow, c.opacity]);

for (const c of cases.displays) {
  const letters = [...c.moves];
  for (const [display] of DISPLAYS) {
    const carried = new CarriedDisplay(display, c.start, c.goal, c.w);
    const where = `${display} (w ${c.w}, goal ${c.goal}, from ${c.start})`;
    same(`${where} before any move`, carried.cells, shownCells(display, c.start, c.goal, c.w));
    // Every move on boards up to 10x10; every 25th on bigger ones, where
    // working out the whole board again after each move would take minutes.
    const every = c.start.length <= 100 ? 1 : 25;
    letters.forEach((letter, k) => {
      const changed = carried.move(letter);
      if (changed === null) { failures.push(`${where}: move ${k} (${letter}) refused`); return; }
      if ((k + 1) % every !== 0) return;
      const played = letters.slice(0, k + 1);
      const whole = shownCells(display, carried.at.tiles, c.goal, c.w, recentOf(c.start, c.goal, c.w, played));
      same(`${where} after ${played.join('')}`, carried.cells, whole);
    });
    same(`${where}: the position reached`, carried.at.tiles, c.now);
    same(`${where} by ${c.moves}, against play`, carried.cells.map(asCompared), c.shown[display]);
  }
}

if (failures.length) {
  console.log(failures.slice(0, 20).join('\n'));
  console.log(`${failures.length} of ${compared} boards disagree`);
  process.exit(1);
}
console.log(`all ${compared} boards agree`);
