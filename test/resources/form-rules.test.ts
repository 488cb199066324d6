// The HTML form rules are checked against the route table at start: a rule no route answers throws, naming itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PATHS } from '../../src/paths.ts';
import { ALL_ROUTES } from '../../src/resources/all-routes.ts';
import { checkFormRules, FORM_RULES, type FormRule } from '../../src/resources/form-rules.ts';

const RULE: FormRule = FORM_RULES.get(`POST ${PATHS.chats}`)!;
const TABLE = [
  { method: 'GET', pattern: PATHS.chats },
  { method: 'POST', pattern: PATHS.chats },
  { method: 'DELETE', pattern: PATHS.chat },
] as const;

test('the rules of the server fit its route table', () => {
  assert.doesNotThrow(() => checkFormRules(ALL_ROUTES));
});

test('a good table passes', () => {
  assert.doesNotThrow(() => checkFormRules(TABLE, new Map([[`POST ${PATHS.chats}`, RULE], [`DELETE ${PATHS.chat}`, RULE]])));
});

test('a rule whose route is missing, or whose method the route does not answer, throws naming the rule', () => {
  const rows = [
    { what: 'no such pattern', rule: 'POST /chatrooms', message: 'form rule "POST /chatrooms" names no route of the route table' },
    { what: 'a pattern of PATHS not in this table', rule: `PUT ${PATHS.read}`, message: `form rule "PUT ${PATHS.read}" names no route of the route table` },
    { what: 'a method the pattern does not answer', rule: `PATCH ${PATHS.chats}`, message: `form rule "PATCH ${PATHS.chats}": the route table answers ${PATHS.chats} with GET, POST only` },
    { what: 'no method', rule: PATHS.chats, message: `form rule "${PATHS.chats}" names no route of the route table` },
    { what: 'more than METHOD pattern', rule: `POST ${PATHS.chats} extra`, message: `form rule "POST ${PATHS.chats} extra" names no route of the route table` },
  ];
  for (const { what, rule, message } of rows) {
    assert.throws(() => checkFormRules(TABLE, new Map([[`POST ${PATHS.chats}`, RULE], [rule, RULE]])), { message }, what);
  }
});
