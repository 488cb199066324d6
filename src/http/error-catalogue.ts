// The one catalogue of error codes: each code's HTTP status and title. Published codes never change.
export const ERROR_CATALOGUE = {
  ERR_BAD_REQUEST: { status: 400, title: 'Bad Request' },
  ERR_BAD_PATH: { status: 400, title: 'Malformed path' },
  ERR_BAD_JSON: { status: 400, title: 'Malformed JSON body' },
  ERR_BAD_QUERY: { status: 400, title: 'Invalid query parameter' },
  ERR_BAD_MULTIPART: { status: 400, title: 'Malformed multipart body' },
  ERR_VALIDATION: { status: 400, title: 'Validation failed' },
  ERR_UNAUTHENTICATED: { status: 401, title: 'Authentication required' },
  ERR_BAD_CREDENTIALS: { status: 401, title: 'Wrong login or password' },
  ERR_FORBIDDEN: { status: 403, title: 'Forbidden' },
  ERR_CSRF: { status: 403, title: 'Cross-site request refused' },
  ERR_WRONG_PASSWORD: { status: 403, title: 'Current password is wrong' },
  ERR_NOT_FOUND: { status: 404, title: 'Not Found' },
  ERR_METHOD_NOT_ALLOWED: { status: 405, title: 'Method Not Allowed' },
  ERR_NOT_ACCEPTABLE: { status: 406, title: 'Not Acceptable' },
  ERR_REQUEST_TIMEOUT: { status: 408, title: 'Request Timeout' },
  ERR_CONFLICT: { status: 409, title: 'Conflict' },
  ERR_LOGIN_TAKEN: { status: 409, title: 'Login already taken' },
  ERR_PRECONDITION_FAILED: { status: 412, title: 'Precondition Failed' },
  ERR_BODY_TOO_LARGE: { status: 413, title: 'Content Too Large' },
  ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
  ERR_UNSUPPORTED_IMAGE: { status: 415, title: 'Unsupported image format' },
  ERR_TOO_MANY_REQUESTS: { status: 429, title: 'Too Many Requests' },
  ERR_HEADERS_TOO_LARGE: { status: 431, title: 'Request Header Fields Too Large' },
  ERR_INTERNAL: { status: 500, title: 'Internal Server Error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
