import { ApiError } from '../../platform/lib/errors.ts';
import { assertPublicUrl, SsrfRefusedError } from '../../platform/lib/ssrf-guard.ts';
import { errorCode } from '../../platform/lib/type-guards.ts';

// Merchant-controlled callback URLs must reach the public internet, in sandbox as in production (SSRF
// guard), unless PAYRAIL_ALLOW_PRIVATE_CALLBACKS is on.
export async function assertPublicCallbackUrl(callbackUrl: string | null): Promise<void> {
  if (!callbackUrl) return;
  try {
    await assertPublicUrl(callbackUrl);
  } catch (error: unknown) {
    const reason = error instanceof SsrfRefusedError ? error.message : `its host does not resolve (${errorCode(error) ?? 'DNS error'})`;
    throw new ApiError('invalid_field', 422, 'callbackUrl is not a reachable public address', [
      { code: 'invalid_field', field: 'callbackUrl', message: `must be a public http(s) address: ${reason}` },
    ]);
  }
}
