// Renders a Representation as XML: application/xml, and application/problem+xml (RFC 9457 Appendix B).
import type { Link, Representation } from './representation.ts';
import { escapeXmlAttribute, escapeXmlText } from './escape.ts';

/*
 * The mapping (also in docs/xml.md). Every document starts with
 * <?xml version="1.0" encoding="UTF-8"?> and is indented by two spaces.
 *
 * - A single resource is one element named after its type, one child element per field,
 *   in the order of the JSON object. The JSON {"data": ...} envelope of chats, messages
 *   and actions is not repeated: in XML the root element already is the resource.
 *     <chat><id>c1</id><title>Team</title><members><item>u1</item></members>...</chat>
 * - A collection page is <collection type=".." total=".." limit=".." offset=".."> holding
 *   one element per item, each named after the type: <collection type="chat"><chat>..</chat>
 *   </collection>. No plural forms to guess, and one root name for every collection.
 * - Links (rep.links) are Atom link elements (RFC 4287 §4.2.7), first among the children of
 *   the root: <atom:link rel="next" href="/chats?offset=20"/>, with xmlns:atom declared on
 *   the root. The prefix keeps them apart from any field, since field names never hold ':'.
 * - null, and numbers JSON cannot carry (NaN, Infinity), are an empty element with
 *   nil="true": <replyTo nil="true"/>. A field that is undefined is left out, as in JSON;
 *   an empty string is an empty element without nil: <title></title>.
 * - An array is its field's element holding one <item> per entry, nested arrays nest
 *   <item>s. An empty array is an empty element: <members/>.
 * - A nested object is a nested element with one child per field.
 * - Numbers and booleans are their JSON text (42, 1.5, true). XML carries no types; the
 *   JSON schema of the resource tells a reader which fields are numbers.
 * - Values with toJSON (a Date) are rendered as JSON.stringify would see them.
 * - A field name that is not a safe XML name (ASCII letter or '_' first, then letters,
 *   digits, '.', '_', '-'; not starting with "xml", XML 1.0 §2.3) becomes
 *   <property name="the original name">..</property> (not <field>, which problems use for
 *   a member); a type name that is not becomes <resource type="the original type">.
 * - Text is escaped (& < > " ' and CR as character references, so CRLF survives XML 1.0
 *   §2.11 line-end normalisation). Characters XML 1.0 §2.2 does not allow (C0 controls
 *   other than tab, LF, CR; lone surrogates; U+FFFE; U+FFFF) are replaced with U+FFFD.
 * - A problem follows RFC 9457 Appendix B: <problem xmlns="urn:ietf:rfc:7807"> with
 *   <type>, <title>, <status>, <detail>, <instance>, then the extensions <code> and
 *   <errors>. As that appendix says, array entries there are <i>, not <item>:
 *     <errors><i><field>title</field><message>too long</message></i></errors>
 */

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const ATOM_NAMESPACE = 'http://www.w3.org/2005/Atom';
const PROBLEM_NAMESPACE = 'urn:ietf:rfc:7807';
const INDENT = '  ';
// A subset of XML 1.0 §2.3 Name: ASCII only and no ':', so no namespace prefix can appear.
const SAFE_NAME = /^(?![Xx][Mm][Ll])[A-Za-z_][A-Za-z0-9._-]*$/;

type Attributes = readonly (readonly [string, string])[];

interface ElementName {
  tag: string;
  attributes: Attributes;
}

interface RenderContext {
  /** The element of one array entry: <item>, or <i> inside a problem. */
  itemTag: string;
  /** Objects being rendered on the current path, to refuse cycles as JSON.stringify does. */
  ancestors: Set<object>;
}

export function renderXml(rep: Representation): string {
  const context: RenderContext = { itemTag: 'item', ancestors: new Set() };
  switch (rep.kind) {
    case 'single': {
      const name = nameOf(rep.type, 'resource', 'type');
      const links = renderLinks(rep.links, INDENT);
      const fields = renderFields(rep.data, INDENT, context);
      return DECLARATION + wrap(name, linkNamespace(rep.links), [...links, ...fields], '') + '\n';
    }
    case 'collection': {
      const page: Attributes = [
        ['type', rep.type],
        ...Object.entries(rep.meta).map(([name, value]): [string, string] => [name, String(value)]),
        ...linkNamespace(rep.links),
      ];
      const items = rep.data.map((item) => renderElement(rep.type, item, INDENT, context, 'resource'));
      const root = { tag: 'collection', attributes: [] };
      return DECLARATION + wrap(root, page, [...renderLinks(rep.links, INDENT), ...items], '') + '\n';
    }
    case 'problem': {
      const { type, title, status, detail, instance } = rep.data;
      // RFC 9457 Appendix B lists the standard members first; assigning the rest keeps that order.
      const ordered = Object.assign({ type, title, status, detail, instance }, rep.data);
      const fields = renderFields(ordered, INDENT, { ...context, itemTag: 'i' });
      const root = { tag: 'problem', attributes: [] };
      return DECLARATION + wrap(root, [['xmlns', PROBLEM_NAMESPACE]], fields, '') + '\n';
    }
  }
}

function linkNamespace(links: readonly Link[] | undefined): Attributes {
  return links !== undefined && links.length > 0 ? [['xmlns:atom', ATOM_NAMESPACE]] : [];
}

function renderLinks(links: readonly Link[] | undefined, indent: string): string[] {
  return (links ?? []).map((link) => {
    const attributes: Attributes = [['rel', link.rel], ['href', link.href]];
    const titled = link.title === undefined ? attributes : [...attributes, ['title', link.title] as const];
    return `${indent}<atom:link${formatAttributes(titled)}/>`;
  });
}

function renderFields(data: object, indent: string, context: RenderContext): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const json = toJsonValue(value);
    if (json !== undefined) lines.push(renderElement(key, json, indent, context, 'field'));
  }
  return lines;
}

function renderElement(
  key: string,
  value: unknown,
  indent: string,
  context: RenderContext,
  kind: 'field' | 'resource',
): string {
  const name = kind === 'field' ? nameOf(key, 'property', 'name') : nameOf(key, 'resource', 'type');
  const json = toJsonValue(value);
  if (json === null || json === undefined) return wrap(name, [['nil', 'true']], [], indent);
  if (typeof json !== 'object') {
    return `${indent}<${name.tag}${formatAttributes(name.attributes)}>${escapeXmlText(String(json))}</${name.tag}>`;
  }
  if (context.ancestors.has(json)) throw new TypeError('Converting circular structure to XML');
  context.ancestors.add(json);
  const inner = indent + INDENT;
  const children = Array.isArray(json)
    ? json.map((entry: unknown) => renderElement(context.itemTag, entry, inner, context, 'field'))
    : renderFields(json, inner, context);
  context.ancestors.delete(json);
  return wrap(name, [], children, indent);
}

function wrap(name: ElementName, extra: Attributes, children: readonly string[], indent: string): string {
  const open = `${indent}<${name.tag}${formatAttributes([...name.attributes, ...extra])}`;
  if (children.length === 0) return `${open}/>`;
  return `${open}>\n${children.join('\n')}\n${indent}</${name.tag}>`;
}

function formatAttributes(attributes: Attributes): string {
  return attributes.map(([name, value]) => ` ${name}="${escapeXmlAttribute(value)}"`).join('');
}

function nameOf(name: string, fallbackTag: string, fallbackAttribute: string): ElementName {
  if (SAFE_NAME.test(name)) return { tag: name, attributes: [] };
  return { tag: fallbackTag, attributes: [[fallbackAttribute, name]] };
}

/**
 * What JSON.stringify would write for `value` (ECMA-262 SerializeJSONProperty): toJSON is
 * applied, non-finite numbers become null, and functions, symbols and undefined become
 * undefined (left out of objects; rendered as nil inside arrays, where JSON writes null).
 */
function toJsonValue(value: unknown): unknown {
  const converted =
    typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  switch (typeof converted) {
    case 'number':
      return Number.isFinite(converted) ? converted : null;
    case 'function':
    case 'symbol':
    case 'undefined':
      return undefined;
    default:
      return converted;
  }
}
