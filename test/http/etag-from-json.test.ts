// The ETag of a JSON answer is hashed from its body text (send.ts stateEtagFromJson); it must be the very tag
// the representation's state gives (stateEtag), which PATCH/PUT/DELETE preconditions and the XML/HTML variants use.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { stateEtag, stateEtagFromJson } from '../../src/http/send.ts';
import { renderRepresentation } from '../../src/representations/render.ts';
import type { Representation, Resource } from '../../src/representations/representation.ts';

const resource = fc.dictionary(fc.string(), fc.jsonValue()) as fc.Arbitrary<Resource>;
const link = fc.record({ rel: fc.string(), href: fc.string() });

const representation: fc.Arbitrary<Representation> = fc.oneof(
  fc.record({ kind: fc.constant('single' as const), type: fc.string(), enveloped: fc.boolean(), data: resource }),
  fc.record({
    kind: fc.constant('collection' as const),
    type: fc.string(),
    data: fc.array(resource, { maxLength: 5 }),
    meta: fc.record({ total: fc.nat(), limit: fc.nat(), offset: fc.nat() }),
    links: fc.option(fc.array(link, { maxLength: 3 }), { nil: undefined }),
  }),
);

test('the tag hashed from the JSON body equals the tag of the state, for any single or collection representation', () => {
  fc.assert(fc.property(representation, (rep) => {
    const rendered = renderRepresentation(rep, 'application/json', { basePath: '', status: 200 });
    assert.equal(rendered.json, rendered.body);
    assert.equal(stateEtagFromJson(rep, rendered.json!), stateEtag(rep, ''));
  }), { numRuns: 2000 });
});
