import { randomBase64Url, sha256Hex } from '../../platform/lib/crypto.ts';
import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { claimKey, type KeyCommit } from './idempotency-keys.ts';

// A dashboard form sent twice (a double click, a reload that posts again, two tabs) does what it asks once. The
// form carries a key made when it was shown; the key is claimed and committed in the idempotency table exactly as
// an API request's Idempotency-Key (principle 4), in the transaction that stores the resource, so a second post
// finds the first one's resource instead of sending another payout.

const FORM_KEY_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export function newFormKey(): string {
  return randomBase64Url(24);
}

export type OnceOutcome<T> = { done: T } | { earlier: string | null }; // earlier: the first post's resource, if stored

export async function oncePerFormKey<T extends { token: string }>(
  db: Db,
  scope: MerchantScope,
  formKey: string,
  run: (commitKey: KeyCommit) => Promise<T>,
): Promise<OnceOutcome<T>> {
  if (!FORM_KEY_PATTERN.test(formKey)) throw new ApiError('form_expired', 409, 'this form is out of date: open it again');
  const idempotencyKey = `dashboard-form:${formKey}`;
  const claimed = await claimKey(db, { ...scope, idempotencyKey }, sha256Hex(idempotencyKey));
  if (!claimed.claimed) return { earlier: claimed.existing.resourceToken };
  const claim = claimed.claim;
  try {
    const done = await run((tx, resource) => claim.commit(resource, tx));
    await claim.finish({ status: 200, contentType: 'application/json', body: JSON.stringify({ token: done.token }) });
    return { done };
  } catch (error) {
    // Nothing committed: the key is released and the same form may be sent again; committed: it stays held.
    await claim.finish({ status: error instanceof ApiError ? error.statusCode : 500, contentType: 'application/json', body: null });
    throw error;
  }
}
