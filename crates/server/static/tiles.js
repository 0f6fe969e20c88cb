// Tile faces: the server writes them as the module faces.js from the same
// Rust code that `tessera shisen render` draws with, so the page and the
// rendered pictures show the same tiles. Symbols are the engine's: 1-9
// circles, a-i bamboo, j-r characters, E S W N winds, R G H dragons, s-v
// flowers, w-z seasons; anything else is drawn as its character.

import { FACES, OTHER } from './faces.js';

function escapeXml(c) {
  return c.replace(/[&<>"']/g, (x) => `&#${x.charCodeAt(0)};`);
}

// The SVG markup of a face, by the engine's symbol.
export function face(kind) {
  return FACES[kind] ?? OTHER.replace('\u0000', escapeXml(kind));
}

const NUMBERS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

// The words for a face (for titles and screen readers).
export function describe(kind) {
  const n = (base) => NUMBERS[kind.charCodeAt(0) - base.charCodeAt(0)];
  if (kind >= '1' && kind <= '9') return `${n('1')} of circles`;
  if (kind >= 'a' && kind <= 'i') return `${n('a')} of bamboo`;
  if (kind >= 'j' && kind <= 'r') return `${n('j')} of characters`;
  const names = { E: 'east wind', S: 'south wind', W: 'west wind', N: 'north wind', R: 'red dragon', G: 'green dragon', H: 'white dragon' };
  if (kind in names) return names[kind];
  if (kind >= 's' && kind <= 'v') return `flower ${kind.charCodeAt(0) - 114}`;
  if (kind >= 'w' && kind <= 'z') return `season ${kind.charCodeAt(0) - 118}`;
  return `tile ${kind}`;
}
