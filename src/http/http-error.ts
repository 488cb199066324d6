// The one error type handlers throw; app.ts turns it into an RFC 9457 problem answer.
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
