// The app's icon (docs/html.md, Icon and manifest): a speech bubble on the theme's blue, described once as shapes
// and drawn from them as SVG (the pages' icon) and as pixels (the manifest's PNGs, the favicon.ico). Pure.
import { encodePng } from './png-image.ts';

/** The theme colour of the manifest and the icon's background; white is its background colour and the bubble's. */
export const THEME_COLOUR = '#0b57d0';
export const BACKGROUND_COLOUR = '#ffffff';
/** The shapes are drawn on a square of this many units. */
const UNITS = 512;

type Shape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; radius: number; fill: string }
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: string }
  | { kind: 'triangle'; points: [number, number][]; fill: string };

/** Back to front: the background, the bubble and its tail, three dots. */
const SHAPES: readonly Shape[] = [
  { kind: 'rect', x: 0, y: 0, width: 512, height: 512, radius: 96, fill: THEME_COLOUR },
  { kind: 'rect', x: 104, y: 128, width: 304, height: 212, radius: 60, fill: BACKGROUND_COLOUR },
  { kind: 'triangle', points: [[168, 320], [256, 320], [148, 408]], fill: BACKGROUND_COLOUR },
  ...[192, 256, 320].map((cx): Shape => ({ kind: 'circle', cx, cy: 234, r: 24, fill: THEME_COLOUR })),
];

function svgOf(shape: Shape): string {
  switch (shape.kind) {
    case 'rect': return `<rect x="${shape.x}" y="${shape.y}" width="${shape.width}" height="${shape.height}" rx="${shape.radius}" fill="${shape.fill}"/>`;
    case 'circle': return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="${shape.fill}"/>`;
    case 'triangle': return `<path d="M${shape.points.map(([x, y]) => `${x} ${y}`).join('L')}Z" fill="${shape.fill}"/>`;
  }
}

export const APP_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${UNITS} ${UNITS}">${SHAPES.map(svgOf).join('')}</svg>\n`;

/** Each shape as a test of a point, its numbers read once (the drawing asks millions of times). */
function predicateOf(shape: Shape): (x: number, y: number) => boolean {
  switch (shape.kind) {
    case 'rect': {
      const { radius } = shape;
      const [cx, cy, hw, hh] = [shape.x + shape.width / 2, shape.y + shape.height / 2, shape.width / 2, shape.height / 2];
      return (x, y) => {
        const ax = Math.abs(x - cx);
        const ay = Math.abs(y - cy);
        if (ax > hw || ay > hh) return false;
        const dx = Math.max(ax - (hw - radius), 0);
        const dy = Math.max(ay - (hh - radius), 0);
        return dx * dx + dy * dy <= radius * radius;
      };
    }
    case 'circle': {
      const { cx, cy, r } = shape;
      return (x, y) => (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
    }
    case 'triangle': {
      const [[ax, ay], [bx, by], [cx, cy]] = shape.points as [[number, number], [number, number], [number, number]];
      return (x, y) => {
        const s1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
        const s2 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
        const s3 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
        return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
      };
    }
  }
}

const PREDICATES = SHAPES.map(predicateOf);
const COLOURS = SHAPES.map((shape) => [1, 3, 5].map((at) => parseInt(shape.fill.slice(at, at + 2), 16)));

/** The frontmost shape at a point, or -1 outside them all. */
function shapeAt(x: number, y: number): number {
  for (let index = PREDICATES.length - 1; index >= 0; index -= 1) if (PREDICATES[index]!(x, y)) return index;
  return -1;
}

/** Samples per pixel side at an edge: 4 x 4 samples smooth it. */
const SAMPLES = 4;

/** Rows drawn between two pauses of drawAppIconInBands. */
const BAND_ROWS = 32;

/**
 * The icon as size x size RGBA pixels, pausing (a bare `yield`) after every band of rows so a caller can let other
 * work run. A pixel whose corners and centre all fall in one shape takes its colour; one on an edge averages its
 * samples (the colour over the covered ones, alpha over all: transparent outside).
 */
export function* drawAppIconInBands(size: number): Generator<void, Uint8Array> {
  const pixels = new Uint8Array(size * size * 4);
  const scale = UNITS / size;
  // The shape at every pixel corner, once: neighbouring pixels share them.
  const corners = new Int8Array((size + 1) * (size + 1));
  for (let y = 0; y <= size; y += 1) for (let x = 0; x <= size; x += 1) corners[y * (size + 1) + x] = shapeAt(x * scale, y * scale);
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      const at = (py * size + px) * 4;
      const centre = shapeAt((px + 0.5) * scale, (py + 0.5) * scale);
      const corner = py * (size + 1) + px;
      const solid = corners[corner] === centre && corners[corner + 1] === centre && corners[corner + size + 1] === centre && corners[corner + size + 2] === centre;
      let [red, green, blue, covered] = [0, 0, 0, 0];
      const samples = solid ? 1 : SAMPLES;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const top = solid ? centre : shapeAt((px + (sx + 0.5) / samples) * scale, (py + (sy + 0.5) / samples) * scale);
          if (top === -1) continue;
          const colour = COLOURS[top]!;
          red += colour[0]!; green += colour[1]!; blue += colour[2]!; covered += 1;
        }
      }
      if (covered === 0) continue;
      pixels[at] = Math.round(red / covered);
      pixels[at + 1] = Math.round(green / covered);
      pixels[at + 2] = Math.round(blue / covered);
      pixels[at + 3] = Math.round((255 * covered) / (samples * samples));
    }
    if ((py + 1) % BAND_ROWS === 0) yield;
  }
  return pixels;
}

/** The icon's pixels at once (drawAppIconInBands without pauses). */
export function drawAppIcon(size: number): Uint8Array {
  const bands = drawAppIconInBands(size);
  for (;;) {
    const step = bands.next();
    if (step.done === true) return step.value;
  }
}

export function renderAppIconPng(size: number, pixels: Uint8Array = drawAppIcon(size)): Buffer {
  return encodePng(size, size, pixels);
}

/** A .ico file holding PNG images (allowed since Windows Vista, read by every browser): a directory, then the PNGs. */
export function renderFaviconIco(sizes: readonly number[]): Buffer {
  const images = sizes.map((size) => renderAppIconPng(size));
  const directory = Buffer.alloc(6 + 16 * images.length);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(images.length, 4);
  let offset = directory.length;
  images.forEach((image, index) => {
    const entry = 6 + 16 * index;
    // Width and height 0 mean 256.
    directory.writeUInt8(sizes[index]! % 256, entry);
    directory.writeUInt8(sizes[index]! % 256, entry + 1);
    directory.writeUInt16LE(1, entry + 4);
    directory.writeUInt16LE(32, entry + 6);
    directory.writeUInt32LE(image.length, entry + 8);
    directory.writeUInt32LE(offset, entry + 12);
    offset += image.length;
  });
  return Buffer.concat([directory, ...images]);
}
