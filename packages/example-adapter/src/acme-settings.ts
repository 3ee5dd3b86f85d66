import type { AdapterSettings } from '@payrail/adapter-kit';

// What this adapter reads from the settings block of each call (spec 2.10). api_key and sign_key are the
// spec's; the acme_* keys are this provider's own, set on the gateway in Payrail and passed through unchanged:
//   settings.gateway_settings.acme_base_url        Acme's API root, e.g. https://api.acme-pay.example
//   settings.gateway_settings.acme_webhook_secret  the secret Acme signs its webhooks with
// Payrail passes provider keys through at the top level of settings too, so they are read there when
// gateway_settings does not have them.

export interface AcmeSettings {
  apiKey: string;
  signKey: string;
  baseUrl: string; // without a trailing slash
  webhookSecret: string;
}

export const SIGN_KEY_CHARS_MIN = 32; // spec 5.6: AES-256 takes the first 32 bytes of sign_key
const WEBHOOK_SECRET_CHARS_MIN = 16;

// The settings, or what is missing from them (answered result=false: the gateway is misconfigured).
export function acmeSettingsOf(settings: AdapterSettings): AcmeSettings | { problem: string } {
  const inGateway = (settings.gateway_settings ?? {}) as Record<string, unknown>;
  const atTop = settings as Record<string, unknown>;
  const providerKey = (name: string) => inGateway[name] ?? atTop[name];
  const apiKey = settings.api_key;
  const signKey = settings.sign_key;
  const baseUrl = providerKey('acme_base_url');
  const webhookSecret = providerKey('acme_webhook_secret');
  if (typeof apiKey !== 'string' || apiKey === '') return { problem: 'settings.api_key (the Acme Pay API key) is required' };
  if (typeof signKey !== 'string' || signKey.length < SIGN_KEY_CHARS_MIN)
    return { problem: `settings.sign_key must have at least ${SIGN_KEY_CHARS_MIN} characters` };
  if (typeof baseUrl !== 'string' || !/^https?:\/\/[^/?#\s]+/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    return { problem: 'settings.gateway_settings.acme_base_url must be the http(s) URL of the Acme Pay API' };
  }
  if (typeof webhookSecret !== 'string' || webhookSecret.length < WEBHOOK_SECRET_CHARS_MIN) {
    return { problem: `settings.gateway_settings.acme_webhook_secret must have at least ${WEBHOOK_SECRET_CHARS_MIN} characters` };
  }
  return { apiKey, signKey, baseUrl: baseUrl.replace(/\/+$/, ''), webhookSecret };
}
