// A history as a small step line: oldest on the left, each change a dot
// (filled where `filled` says so), the greater value higher. A personal
// best's improvements (profile.js) and a rating's races (ratings.js) are
// drawn by it. `label` is what a screen reader hears instead.
const SVG = 'http://www.w3.org/2000/svg';

// An SVG element with these attributes.
export function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export function stepGraph(points, { at, value, filled, label }) {
  const values = points.map(value);
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  const chart = svg('svg', {
    viewBox: '0 0 160 40', width: 160, height: 40, role: 'img', class: 'pb-graph', 'aria-label': label,
  });
  const t0 = at(points[0]);
  const span = Math.max(1, at(points[points.length - 1]) - t0);
  const x = (p) => (points.length === 1 ? 80 : 6 + (148 * (at(p) - t0)) / span);
  const y = (p) => (top === bottom ? 20 : 6 + (28 * (top - value(p))) / (top - bottom));
  let path = '';
  points.forEach((p, i) => { path += i === 0 ? `M${x(p)},${y(p)}` : ` H${x(p)} V${y(p)}`; });
  chart.append(svg('path', { d: path, class: 'tps-line', fill: 'none' }));
  for (const p of points) {
    chart.append(svg('circle', { cx: x(p), cy: y(p), r: 3, class: filled(p) ? 'plot-dot' : 'plot-dot unranked' }));
  }
  return chart;
}
