// The one error type handlers throw; pipeline/problem-reply.ts turns it into an RFC 9457 problem answer.
import { ParseFailure, type ParseFailureKind } from '../parsers/parse-failure.ts';
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.ts';

export interface FieldError {
  field: string;
  message: string;
}

export interface HttpErrorOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: HttpErrorOptions = {}) {
    super(detail);
    this.name = 'HttpError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.title = ERROR_CATALOGUE[code].title;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

/** A 400 that names the offending field, the shape every validator uses. */
export function invalidField(field: string, message: string, code: ErrorCode = 'ERR_VALIDATION'): HttpError {
  return new HttpError(code, `${field}: ${message}`, { errors: [{ field, message }] });
}

/** The problem each kind of a parser's failure is answered with. */
const PARSE_FAILURE_CODES: Record<ParseFailureKind, ErrorCode> = {
  'invalid': 'ERR_VALIDATION',
  'bad-query': 'ERR_BAD_QUERY',
  'bad-multipart': 'ERR_BAD_MULTIPART',
  'too-large': 'ERR_BODY_TOO_LARGE',
  'unsupported-type': 'ERR_UNSUPPORTED_MEDIA_TYPE',
};

/**
 * The HttpError an error is answered with: itself, or a parser's failure mapped to its code (parsers know
 * nothing of HTTP); undefined for anything else, which is the server's own fault (a 500).
 */
export function httpErrorOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof ParseFailure) {
    return new HttpError(PARSE_FAILURE_CODES[error.kind], error.detail, error.problem ? { errors: [error.problem] } : {});
  }
  return undefined;
}
