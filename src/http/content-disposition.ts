// Content-Disposition with a file name any browser reads safely (RFC 6266 §4, RFC 8187 §3.2).

// RFC 8187 §3.2.1 attr-char: what filename* carries as it is; every other byte of the UTF-8 is %XX.
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

function encodeExtValue(name: string): string {
  let encoded = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/**
 * `attachment` (save, never show) or `inline`, with `filename` for old clients, in printable ASCII and without
 * quotes or backslashes (RFC 6266 §4.3: anything else becomes `_`), and `filename*` with the exact name in UTF-8
 * (RFC 8187), which clients that know it prefer (RFC 6266 §4.3).
 */
export function contentDisposition(type: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\u0020-\u007e]|["\\%]/gu, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
