import { ApiError } from '../../platform/lib/errors.ts';

const EMAIL_LENGTH_MAX = 254;
const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

export function fieldError(field: string, message: string): ApiError {
  return new ApiError('invalid_field', 422, `${field} ${message}`, [{ code: 'invalid_field', field, message }]);
}

export function normalizedEmail(text: string): string {
  const email = text.trim().toLowerCase();
  if (email.length > EMAIL_LENGTH_MAX || !EMAIL_SHAPE.test(email)) throw fieldError('email', 'must be an e-mail address');
  return email;
}
