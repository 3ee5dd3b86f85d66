import { describe, expect, it } from 'vitest';
import { redactUrlForLog } from '../../../src/platform/lib/log-url.ts';
import { loggerOptions } from '../../../src/platform/lib/logger.ts';

describe('request URLs in the log', () => {
  it.each([
    ['/cards/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', '/cards/[redacted]'],
    ['/cards/eyJh.eyJz.c2ln?x=1', '/cards/[redacted]?x=1'],
    [
      '/api/internal/v1/bank_cards/12/show_card_data?merchant_private_key=sk_live_abcdefghijklmnopqrstu',
      '/api/internal/v1/bank_cards/12/show_card_data?merchant_private_key=[redacted]',
    ],
    ['/api/v1/bank_accounts/list?id_or_token=tok_1&page=2', '/api/v1/bank_accounts/list?id_or_token=[redacted]&page=2'],
    ['/api/v1/payments?orderNumber=4242424242424242', '/api/v1/payments?orderNumber=424242******4242'],
    ['/checkout/0123456789abcdef0123456789abcdef?locale=en', '/checkout/0123456789abcdef0123456789abcdef?locale=en'],
    ['/dashboard/confirm?token=Zm9vYmFyYmF6', '/dashboard/confirm?token=[redacted]'],
    ['/dashboard/disputes/abc/evidence?_csrf=abc.def', '/dashboard/disputes/abc/evidence?_csrf=[redacted]'],
  ])('%s → %s', (url, logged) => {
    expect(redactUrlForLog(url)).toBe(logged);
  });

  it('is what the request serializer prints', () => {
    const serialize = loggerOptions('info').serializers?.['req'] as (request: unknown) => { url: string };
    const logged = serialize({ method: 'GET', url: '/cards/aaa.bbb.ccc', headers: {}, host: 'pay.test', ip: '127.0.0.1', socket: null });
    expect(logged.url).toBe('/cards/[redacted]');
  });
});
