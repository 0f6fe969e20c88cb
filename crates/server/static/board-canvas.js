// Big sliding-puzzle boards drawn on a canvas. A 32×32 as 1,023 styled
// elements costs the browser a restyle and repaint of the whole board for
// each hover move, far past one frame; on a canvas a move redraws the few
// cells it changed (slide.js says which). The screen reader's grid of cells
// stays beside the canvas (slide.js keeps it), and the canvas is hidden
// from it. Smaller boards keep their tile elements, which animate.
import { el } from './api.js';

// Boards of more cells than this (past 10×10) are drawn on a canvas.
export const CANVAS_ABOVE = 100;
export const onCanvas = (w, h) => w * h > CANVAS_ABOVE;

// The colours of app.css's tiles, kept equal by hand: a canvas cannot use
// the stylesheet.
const FACE = '#f6efdf';
const FACE_HOME = '#e3f1df';
const HINTED = '#ffe08a';
const EDGE = '#b8a98a';
const INK = '#1d2b3a';
const TINTS = { red: '#e05a4f', blue: '#5b8fd9', green: '#5fb86a' };

const pictures = new Map(); // a look's picture (a data URL) as an image

export class CanvasBoard {
  // Puts a canvas sized to `board`'s cells in it, first, for a w × h game.
  constructor(board, w, h) {
    this.w = w;
    this.h = h;
    this.canvas = el('canvas', { class: 'board-canvas', 'aria-hidden': 'true' });
    board.prepend(this.canvas);
    this.fit();
  }

  // Matches the canvas's pixels to its size on screen (the board's cells
  // change size with the window and the zoom); true if they changed.
  fit() {
    const box = this.canvas.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    const [pw, ph] = [Math.round(box.width * ratio), Math.round(box.height * ratio)];
    if (this.canvas.width === pw && this.canvas.height === ph && this.cell) return false;
    this.canvas.width = pw;
    this.canvas.height = ph;
    this.cell = pw / this.w;
    return true;
  }

  // Draws the cells listed in `only`, or every cell. `scene` is what the
  // board shows: { tiles, home (tile → goal cell), cells (a display's, or
  // null), blind, numbers, colours (a scheme's, or null), picture (a data
  // URL, or null), hint (a cell, or null) }.
  paint(scene, only = null) {
    const ctx = this.canvas.getContext('2d');
    const image = scene.picture ? this.image(scene) : null;
    const size = this.cell;
    const font = `700 ${Math.round(size * 0.42)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const i of only ?? scene.tiles.keys()) {
      const x = (i % this.w) * size, y = Math.floor(i / this.w) * size;
      ctx.clearRect(x, y, size, size);
      const t = scene.tiles[i];
      const shown = scene.cells?.[i];
      if (t === 0 || shown?.hidden) continue;
      ctx.save();
      if (shown?.opacity) ctx.globalAlpha = shown.opacity[0] / shown.opacity[1];
      const inset = Math.max(0.5, size * 0.05);
      const [fx, fy, fs] = [x + inset, y + inset, size - 2 * inset];
      ctx.beginPath();
      ctx.roundRect(fx, fy, fs, fs, Math.min(8, size * 0.18));
      ctx.fillStyle = EDGE;
      ctx.fill();
      ctx.beginPath();
      ctx.roundRect(fx, fy, fs, fs - Math.min(2, size * 0.08), Math.min(8, size * 0.18));
      ctx.fillStyle = this.face(scene, i, t, shown);
      ctx.fill();
      if (image && !scene.blind && !shown) {
        // The part of the picture at the tile's goal cell.
        const g = scene.home.get(t);
        const [sx, sy] = [(g % this.w) * (image.width / this.w), Math.floor(g / this.w) * (image.height / this.h)];
        ctx.clip();
        ctx.drawImage(image, sx, sy, image.width / this.w, image.height / this.h, fx, fy, fs, fs);
      }
      if (!scene.blind && scene.numbers) this.mark(ctx, scene, t, shown, x, y, font);
      ctx.restore();
    }
  }

  // A tile's fill: a display's tint, the hint, a scheme's colour, or home.
  face(scene, i, t, shown) {
    if (scene.hint === i) return HINTED;
    if (scene.blind) return FACE;
    if (shown) return TINTS[shown.tint] ?? FACE;
    if (scene.colours) return scene.colours.fills[t];
    return scene.home.get(t) === i ? FACE_HOME : FACE;
  }

  // The tile's number, or what its display shows (text or an arrow).
  mark(ctx, scene, t, shown, x, y, font) {
    const size = this.cell;
    const [cx, cy] = [x + size / 2, y + size / 2];
    ctx.fillStyle = scene.colours && !shown ? scene.colours.texts[t] : scene.picture && !shown ? '#fff' : INK;
    ctx.font = font;
    if (shown?.arrow) {
      const [dx, dy] = shown.arrow;
      ctx.translate(cx, cy);
      ctx.rotate(Math.atan2(dy, dx));
      ctx.fillText(dx === 0 && dy === 0 ? '•' : '→', 0, 0);
      return;
    }
    const text = shown ? shown.text : String(t);
    if (text === '') return;
    if (scene.picture && !shown) {
      ctx.strokeStyle = '#000';
      ctx.lineWidth = Math.max(1, size * 0.06);
      ctx.strokeText(text, cx, cy);
    }
    ctx.fillText(text, cx, cy);
  }

  // The look's picture, loaded once; the board is drawn again when it is.
  image(scene) {
    let image = pictures.get(scene.picture);
    if (!image) {
      image = new Image();
      image.onload = () => this.paint({ ...scene, picture: scene.picture });
      image.src = scene.picture;
      pictures.set(scene.picture, image);
    }
    return image.complete && image.naturalWidth ? image : null;
  }
}
