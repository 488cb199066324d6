// An HttpError as an RFC 9457 problem document: the one place its fields are chosen.
import type { ProblemRepresentation } from '../representations/representation.ts';
import type { HttpError } from './http-error.ts';

export function toProblem(error: HttpError): ProblemRepresentation['data'] {
  const data: ProblemRepresentation['data'] = {
    type: `https://chat-api.invalid/problems/${error.code.slice(4).toLowerCase().replaceAll('_', '-')}`,
    title: error.title,
    status: error.status,
    // A 5xx says only its status text; the details go to the log.
    detail: error.status >= 500 ? error.title : error.detail,
    code: error.code,
  };
  if (error.errors) data.errors = error.errors;
  return data;
}
