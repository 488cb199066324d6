// The avatar crop in HTML: an SVG viewBox on the zone, a box of the zone's shape at 96 px, attributes only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderAvatarImage } from '../../src/representations/html-avatar.ts';

const HREF = '/users/u1/avatar/a1/image';
const IMAGE = { imageWidth: 640, imageHeight: 480 };

test('the zone becomes the viewBox over the whole image, in a box of the zone\'s shape', () => {
  const rows = [
    { what: 'square zone', avatar: { ...IMAGE, x: 100, y: 50, width: 200, height: 200 }, box: [96, 96], viewBox: '100 50 200 200' },
    { what: 'wide zone', avatar: { ...IMAGE, x: 0, y: 0, width: 640, height: 320 }, box: [96, 48], viewBox: '0 0 640 320' },
    { what: 'tall zone', avatar: { ...IMAGE, x: 10, y: 0, width: 30, height: 480 }, box: [6, 96], viewBox: '10 0 30 480' },
    { what: 'a thin sliver keeps one pixel', avatar: { ...IMAGE, x: 0, y: 0, width: 640, height: 1 }, box: [96, 1], viewBox: '0 0 640 1' },
    { what: 'no zone: the whole image', avatar: { ...IMAGE }, box: [96, 72], viewBox: '0 0 640 480' },
    { what: 'an empty zone: the whole image', avatar: { ...IMAGE, x: 0, y: 0, width: 0, height: 10 }, box: [96, 72], viewBox: '0 0 640 480' },
  ];
  for (const { what, avatar, box, viewBox } of rows) {
    const html = renderAvatarImage(HREF, avatar);
    assert.ok(html.startsWith(`<svg class="avatar" role="img" aria-label="Avatar" width="${box[0]}" height="${box[1]}" viewBox="${viewBox}" preserveAspectRatio="xMidYMid slice">`), `${what}: ${html}`);
    assert.ok(html.includes(`<image href="${HREF}" x="0" y="0" width="640" height="480" preserveAspectRatio="none"/></svg>`), what);
    assert.doesNotMatch(html, /style=/, `${what}: no inline style under the CSP`);
  }
});

test('without image dimensions: a plain image in the fixed box; the href is escaped', () => {
  assert.equal(renderAvatarImage('/a"b<c', {}), '<img src="/a&quot;b&lt;c" alt="Avatar" width="96" height="96">');
  assert.match(renderAvatarImage('/a"b', { ...IMAGE }), /<image href="\/a&quot;b"/);
});
