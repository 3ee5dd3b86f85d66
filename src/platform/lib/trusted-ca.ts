import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

// undici builds a TLS context for every new connection from `ca`: ~140 root certificates parsed each time.
// One context per set of extra CAs, built once, is handed to every connection instead.
const contexts = new Map<string, SecureContext>();

export function secureContextTrusting(extraCa: readonly string[]): SecureContext {
  const cacheKey = extraCa.join('\n');
  let context = contexts.get(cacheKey);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, ...extraCa] });
    contexts.set(cacheKey, context);
  }
  return context;
}
