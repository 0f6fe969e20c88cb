// Tile faces drawn as SVG, so they look the same on every machine (no
// mahjong font needed) and stay legible from 14×6 to 30×16. Symbols are the
// engine's: 1-9 circles, a-i bamboo, j-r characters, E S W N winds,
// R G H dragons, s-v flowers, w-z seasons; anything else is drawn as its
// character.

const NS = 'http://www.w3.org/2000/svg';
const W = 40, H = 52;

// Pip positions (3 × 3 grid cells) for ranks 1-9.
const PIPS = {
  1: [[1, 1]],
  2: [[1, 0], [1, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  7: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
  8: [[0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
  9: [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1], [0, 2], [1, 2], [2, 2]],
};
const PIP_COLORS = ['#1f5fa8', '#c0392b', '#1e8449'];
const at = (c, r) => [9 + c * 11, 11 + r * 15];

function circles(rank) {
  const big = rank === 1;
  return PIPS[rank].map(([c, r], i) => {
    const [x, y] = at(c, r);
    const color = PIP_COLORS[(rank + i) % 3];
    return `<circle cx="${x + 2}" cy="${y + 2}" r="${big ? 12 : 4.6}" fill="none" stroke="${color}" stroke-width="${big ? 3 : 2}"/>`
      + `<circle cx="${x + 2}" cy="${y + 2}" r="${big ? 5 : 1.8}" fill="${color}"/>`;
  }).join('');
}

function bamboo(rank) {
  if (rank === 1) {
    return '<rect x="17" y="8" width="6" height="36" rx="3" fill="#1e8449"/>'
      + '<rect x="15" y="18" width="10" height="3" fill="#c0392b"/><rect x="15" y="32" width="10" height="3" fill="#c0392b"/>';
  }
  return PIPS[rank].map(([c, r], i) => {
    const [x, y] = at(c, r);
    const color = i % 4 === 3 ? '#c0392b' : '#1e8449';
    return `<rect x="${x}" y="${y - 5}" width="4" height="13" rx="2" fill="${color}"/>`
      + `<rect x="${x - 0.5}" y="${y + 1}" width="5" height="1.4" fill="#0b4d2a"/>`;
  }).join('');
}

function text(t, size, color, y = 34, weight = 700) {
  return `<text x="20" y="${y}" font-size="${size}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="${weight}" fill="${color}" text-anchor="middle">${t}</text>`;
}

function characters(rank) {
  // The rank in black over the red "ten thousand" stroke pattern.
  return text(String(rank), 22, '#1b1b1b', 25)
    + '<path d="M10 33 h20 M12 38 h16 M20 30 v16 M13 44 q7 -4 14 0" stroke="#c0392b" stroke-width="2.2" fill="none" stroke-linecap="round"/>';
}

function flower(n) {
  const petals = [0, 72, 144, 216, 288].map((a) => {
    const r = (a * Math.PI) / 180;
    return `<circle cx="${20 + 7 * Math.sin(r)}" cy="${24 - 7 * Math.cos(r)}" r="5" fill="#d35d9b"/>`;
  }).join('');
  return petals + '<circle cx="20" cy="24" r="3.5" fill="#f4d03f"/>' + text(String(n), 11, '#7d3c98', 47);
}

function season(n) {
  const rays = [0, 45, 90, 135, 180, 225, 270, 315].map((a) => {
    const r = (a * Math.PI) / 180;
    return `<line x1="${20 + 9 * Math.sin(r)}" y1="${23 - 9 * Math.cos(r)}" x2="${20 + 13 * Math.sin(r)}" y2="${23 - 13 * Math.cos(r)}" stroke="#e67e22" stroke-width="2" stroke-linecap="round"/>`;
  }).join('');
  return rays + '<circle cx="20" cy="23" r="7" fill="#f39c12"/>' + text(String(n), 11, '#a04000', 47);
}

function dragon(kind) {
  if (kind === 'R') {
    // 中: a box crossed by a long vertical stroke.
    return '<rect x="10" y="17" width="20" height="14" fill="none" stroke="#c0392b" stroke-width="3"/>'
      + '<line x1="20" y1="9" x2="20" y2="44" stroke="#c0392b" stroke-width="3.4" stroke-linecap="round"/>';
  }
  if (kind === 'G') {
    return '<path d="M20 8 C30 16 30 30 20 44 C10 30 10 16 20 8 Z" fill="#1e8449"/>'
      + '<line x1="20" y1="12" x2="20" y2="42" stroke="#d5f5e3" stroke-width="1.6"/>';
  }
  return '<rect x="9" y="9" width="22" height="34" rx="2" fill="none" stroke="#1f5fa8" stroke-width="3"/>'
    + '<rect x="13" y="13" width="14" height="26" rx="1" fill="none" stroke="#1f5fa8" stroke-width="1.4"/>';
}

function escapeXml(c) {
  return c.replace(/[&<>"']/g, (x) => `&#${x.charCodeAt(0)};`);
}

// The SVG markup of a face, by the engine's symbol.
export function face(kind) {
  let body;
  if (kind >= '1' && kind <= '9') body = circles(+kind);
  else if (kind >= 'a' && kind <= 'i') body = bamboo(kind.charCodeAt(0) - 96);
  else if (kind >= 'j' && kind <= 'r') body = characters(kind.charCodeAt(0) - 105);
  else if ('ESWN'.includes(kind)) body = text(kind, 26, '#1b2a49', 36);
  else if ('RGH'.includes(kind)) body = dragon(kind);
  else if (kind >= 's' && kind <= 'v') body = flower(kind.charCodeAt(0) - 114);
  else if (kind >= 'w' && kind <= 'z') body = season(kind.charCodeAt(0) - 118);
  else body = text(escapeXml(kind), 22, '#333', 34);
  return `<svg xmlns="${NS}" viewBox="0 0 ${W} ${H}" aria-hidden="true">${body}</svg>`;
}

// The words for a face (for titles and screen readers).
export function describe(kind) {
  const n = (base) => kind.charCodeAt(0) - base.charCodeAt(0) + 1;
  if (kind >= '1' && kind <= '9') return `${kind} of circles`;
  if (kind >= 'a' && kind <= 'i') return `${n('a')} of bamboo`;
  if (kind >= 'j' && kind <= 'r') return `${n('j')} of characters`;
  const names = { E: 'east wind', S: 'south wind', W: 'west wind', N: 'north wind', R: 'red dragon', G: 'green dragon', H: 'white dragon' };
  if (kind in names) return names[kind];
  if (kind >= 's' && kind <= 'v') return `flower ${n('s')}`;
  if (kind >= 'w' && kind <= 'z') return `season ${n('w')}`;
  return `tile ${kind}`;
}
