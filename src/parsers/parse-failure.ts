// What a parser throws when its input is wrong: a typed failure, which the HTTP layer maps to its problem answer.

/**
 * The kinds of wrong input: a field's value (`invalid`), a query parameter (`bad-query`), a multipart body
 * (`bad-multipart`), a body or part over its limit (`too-large`), a Content-Type the parser does not read
 * (`unsupported-type`). http/http-error.ts maps each to one code of the error catalogue.
 */
export type ParseFailureKind = 'invalid' | 'bad-query' | 'bad-multipart' | 'too-large' | 'unsupported-type';

/** The one field a failure is about, and what is wrong with it, for the problem's `errors`. */
export interface FieldProblem {
  field: string;
  message: string;
}

export class ParseFailure extends Error {
  override name = 'ParseFailure';

  readonly kind: ParseFailureKind;
  readonly detail: string;
  readonly problem?: FieldProblem;

  constructor(kind: ParseFailureKind, detail: string, problem?: FieldProblem) {
    super(detail);
    this.kind = kind;
    this.detail = detail;
    this.problem = problem;
  }
}

/** The value of one named field (of a body, or a query parameter) is wrong: the detail names the field first. */
export function fieldFailure(field: string, message: string, kind: 'invalid' | 'bad-query' = 'invalid'): ParseFailure {
  return new ParseFailure(kind, `${field}: ${message}`, { field, message });
}
