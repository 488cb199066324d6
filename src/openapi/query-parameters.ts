// The query language (docs/protocol.md §6) as OpenAPI parameters, from the same CollectionSpec the parser reads,
// so a collection documents exactly the fields it accepts.
import type { CollectionSpec, FieldSpec } from '../parsers/query.ts';
import type { ParameterDoc, QueryDoc } from './route-doc.ts';
import type { JsonSchema } from './schema.ts';

const FILTER_SYNTAX = 'ops: eq, ne, like (% and _ as in SQL, case-insensitive), in (comma-separated values), gt, gte, lt, lte';

const VALUE_SYNTAX: Record<FieldSpec['type'], string> = {
  string: 'text',
  id: 'an id',
  number: 'a number',
  timestamp: 'an ISO 8601 time or date (2026-01-01, 2026-01-01T09:30:00Z)',
  'id-list': 'a user id (the list holds it)',
};

/** Values that may repeat (every filter ANDs): an array in form style, one `name=value` per item. */
function repeated(description: string, example?: string): JsonSchema {
  return { type: 'array', items: { type: 'string' }, description, ...(example ? { examples: [[example]] } : {}) };
}

function fieldParameters(field: FieldSpec): ParameterDoc[] {
  const value = VALUE_SYNTAX[field.type];
  const ordered = field.type === 'number' || field.type === 'timestamp';
  const list = field.type === 'id-list';
  const equality = list ? `${field.name}=<id>: the list holds that id`
    : `${field.name}=<value>: equals ${value}${ordered ? `; ${field.name}=<low>-<high>: inclusive range` : ''}; `
      + `${field.name}=><value> / ${field.name}=<<value>: greater / less than. May repeat (AND)`;
  const parameters: ParameterDoc[] = [
    { name: field.name, description: equality, schema: repeated(`Filter on ${field.name}`) },
    { name: `filter[${field.name}][]`, description: `Repeat: ${field.name} is one of the values`, schema: repeated(`Values of ${field.name}`) },
  ];
  if (!list) {
    parameters.push(
      { name: `${field.name}>`, description: `Written ${field.name}>=<value>: greater than or equal`, schema: repeated(value) },
      { name: `${field.name}<`, description: `Written ${field.name}<=<value>: less than or equal`, schema: repeated(value) },
      { name: `sort[${field.name}]`, description: `Sort by ${field.name}; several sort[...] apply in order`, schema: { type: 'string', enum: ['ASC', 'DESC', 'asc', 'desc'] } },
    );
  }
  return parameters;
}

/** limit, offset, filter, sort, order, then each field's own forms; then the handler's own parameters. */
export function queryParameters(query: QueryDoc): ParameterDoc[] {
  const parameters: ParameterDoc[] = [];
  const spec: CollectionSpec | undefined = query.fields;
  if (spec) {
    // A hidden field only orders the page (a reaction's insertion order): clients cannot name it.
    const fields = spec.fields.filter((field) => field.hidden !== true);
    const names = fields.map((field) => field.name);
    const sortable = fields.filter((field) => field.type !== 'id-list').map((field) => field.name);
    parameters.push(
      { name: 'limit', description: 'Page size: default 20, at most 100 (a larger one is cut to 100 and meta.limit says so)', schema: { type: 'integer', minimum: 0, default: 20 } },
      { name: 'offset', description: 'Items to skip', schema: { type: 'integer', minimum: 0, default: 0 } },
      { name: 'filter', description: `<field>|<op>|<value>, may repeat (AND). Fields: ${names.join(', ')}; ${FILTER_SYNTAX}`, schema: repeated('Filter expressions', `${names[1] ?? names[0]}|like|a%`) },
      { name: 'sort', description: 'Sort by one field, ascending; -<field> descending. Default: by id. Ties break by id.', schema: { type: 'string', enum: [...sortable, ...sortable.map((name) => `-${name}`)] } },
      { name: 'order', description: 'The direction of sort=<field>', schema: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] } },
      ...fields.flatMap(fieldParameters),
    );
  }
  return [...parameters, ...(query.parameters ?? [])];
}

/** As OpenAPI parameter objects; arrays explode into one name=value pair per item (style form). */
export function toOpenApiParameters(parameters: readonly ParameterDoc[]): JsonSchema[] {
  return parameters.map((parameter) => ({
    name: parameter.name,
    in: parameter.in ?? 'query',
    description: parameter.description,
    required: parameter.required ?? false,
    schema: parameter.schema,
    ...(parameter.schema['type'] === 'array' ? { style: 'form', explode: true } : {}),
  }));
}
