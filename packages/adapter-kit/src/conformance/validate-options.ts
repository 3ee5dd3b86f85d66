import { CONFORMANCE_METHODS, SETTING_PATH_PATTERN, SIGN_KEY_LENGTH, TIMEOUT_MS_MAX, type ConformanceOptions } from './options.ts';

export class ConformanceOptionsError extends Error {}

// Refuses options the suite cannot run with, naming the option.
export function validatedOptions(options: ConformanceOptions): ConformanceOptions {
  if (!URL.canParse(options.url) || !/^https?:$/.test(new URL(options.url).protocol)) throw new ConformanceOptionsError('url must be an http(s) URL');
  if ([...options.signKey].length !== SIGN_KEY_LENGTH)
    throw new ConformanceOptionsError(`sign key must be exactly ${SIGN_KEY_LENGTH} characters, as a gateway's sign_key`);
  if (options.timeoutMs !== undefined && (!Number.isSafeInteger(options.timeoutMs) || options.timeoutMs < 1 || options.timeoutMs > TIMEOUT_MS_MAX)) {
    throw new ConformanceOptionsError(`timeout must be 1..${TIMEOUT_MS_MAX} ms`);
  }
  if (options.callbackPort !== undefined && (!Number.isInteger(options.callbackPort) || options.callbackPort < 0 || options.callbackPort > 65_535)) {
    throw new ConformanceOptionsError('callback port must be 0..65535');
  }
  for (const method of options.methods ?? []) {
    if (!(CONFORMANCE_METHODS as readonly string[]).includes(method))
      throw new ConformanceOptionsError(`unknown method "${method}": ${CONFORMANCE_METHODS.join(', ')}`);
  }
  for (const [name, pan] of Object.entries({
    cardApprove: options.cardApprove,
    cardDecline: options.cardDecline,
    cardCallback: options.cardCallback,
    cardPayout: options.cardPayout,
  })) {
    if (pan !== undefined && !/^[0-9 ]{12,23}$/.test(pan)) throw new ConformanceOptionsError(`${name} must be a card number (12..19 digits)`);
  }
  if (options.amountMinor !== undefined && (!Number.isSafeInteger(options.amountMinor) || options.amountMinor < 1))
    throw new ConformanceOptionsError('amount must be a positive integer of minor units');
  if (options.currency !== undefined && !/^[A-Z]{3}$/.test(options.currency)) throw new ConformanceOptionsError('currency must be an ISO 4217 code');
  if (options.callbackPublicUrl !== undefined && !URL.canParse(options.callbackPublicUrl))
    throw new ConformanceOptionsError('callback public URL must be a URL');
  if (options.providerUrlSetting !== undefined && !SETTING_PATH_PATTERN.test(options.providerUrlSetting)) {
    throw new ConformanceOptionsError('provider URL setting must be a key path of the settings block, e.g. gateway_settings.acme_base_url');
  }
  return options;
}
