import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../../src/platform/lib/logger.ts';

describe('log redaction', () => {
  it('redacts authorization, keys, PAN and CVV by path', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = pino(loggerOptions('info'), sink);
    logger.info({
      req: { headers: { authorization: 'Bearer sk_live_topsecret' } },
      merchant: { sandbox_key: 'sk_sandbox_topsecret', production_key: 'sk_live_topsecret2' },
      body: { card: { pan: '4242424242424242', cvv: '123' } },
      payment: { merchant_private_key: 'sk_live_topsecret3' },
      settings: { sign_key: 'signsecret', api_key: 'apisecret' },
    });
    const line = lines.join('');
    for (const secret of ['topsecret', '4242424242424242', '"123"', 'signsecret', 'apisecret']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });
});
