// Escaping of untrusted text for the XML and HTML renderers, so any string a user posts stays inert.

/**
 * XML 1.0 §2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
 * With the `u` flag a lone surrogate is one code point in D800-DFFF, so it falls outside the class,
 * while a proper surrogate pair is one astral code point and is kept.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** What a character XML 1.0 cannot carry becomes (the Unicode replacement character). */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Replaces every code point XML 1.0 does not allow (C0 controls other than tab, LF and CR;
 * lone surrogates; U+FFFE, U+FFFF) with U+FFFD.
 */
export function replaceInvalidCharacters(text: string): string {
  return text.replace(NOT_XML_CHAR, REPLACEMENT_CHARACTER);
}

const XML_TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  // Escaping '>' everywhere also covers ']]>', which XML 1.0 §2.4 forbids in character data.
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // XML 1.0 §2.11 turns a raw CR (and CRLF) into LF when parsing; a character reference survives.
  '\r': '&#13;',
};

// XML 1.0 §3.3.3: attribute-value normalisation turns raw tab, LF and CR into spaces; references survive.
const XML_ATTRIBUTE_ESCAPES: Record<string, string> = { ...XML_TEXT_ESCAPES, '\t': '&#9;', '\n': '&#10;' };

/** Character data for an XML element: always well-formed, and reads back as the same text (after replacement). */
export function escapeXmlText(text: string): string {
  return replaceInvalidCharacters(text).replace(/[&<>"'\r]/g, (c) => XML_TEXT_ESCAPES[c] ?? c);
}

/** An XML attribute value, for use inside double or single quotes. */
export function escapeXmlAttribute(text: string): string {
  return replaceInvalidCharacters(text).replace(/[&<>"'\r\t\n]/g, (c) => XML_ATTRIBUTE_ESCAPES[c] ?? c);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text or a quoted attribute value in HTML. Escaping all five characters makes the same function
 * safe in both places (OWASP XSS prevention, rules 1 and 2), so no caller has to pick.
 */
export function escapeHtml(text: string): string {
  return replaceInvalidCharacters(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
