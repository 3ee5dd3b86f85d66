import { CoreApiError } from '../../platform/lib/core-errors.ts';

// The refusals the profile and bank account operations share, in spec 7.2's envelope (kind says what failed).

export interface FieldRefusal {
  code: string;
  field: string;
  message: string;
}

export function invalidFields(problems: readonly FieldRefusal[]): CoreApiError {
  const first = problems[0];
  const message = first === undefined ? 'the request is not valid' : `${first.field} ${first.message}`;
  return new CoreApiError(
    first?.code ?? 'invalid_field',
    422,
    message,
    problems.map((problem) => ({ ...problem, kind: 'validation' })),
  );
}

export function notFound(kind: string, message: string): CoreApiError {
  return new CoreApiError('not_found', 404, message, [{ code: 'not_found', kind, message }]);
}

export function forbidden(kind: string, field: string, message: string): CoreApiError {
  return new CoreApiError('forbidden', 403, message, [{ code: 'forbidden', kind, field, message }]);
}

export function limitReached(code: string, message: string): CoreApiError {
  return new CoreApiError(code, 422, message, [{ code, kind: 'limit', message }]);
}
