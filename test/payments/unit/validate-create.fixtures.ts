import { buildCurrencyTable } from '../../../src/platform/lib/currencies.ts';
import type { FieldError } from '../../../src/payments/domain/payment-request.ts';
import { createPaymentValidator, type CreatePaymentValidation } from '../../../src/payments/routes/merchant-api/payments/validate-create.ts';

export const currencies = buildCurrencyTable({ USDT: 6 });
export const validate = createPaymentValidator({ currencies });

export type Body = Record<string, unknown>;

export const CARD = { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'JOHN DOE', cvv: '123' };

export const BODY_A: Body = {
  product: 'Widget',
  amount: 1000,
  currency: 'USD',
  callbackUrl: 'https://merchant.example/callback',
};

export const BODY_B: Body = { product: 'Wi', amount: 1000, currency: 'USD', order_number: 'ord-1' };

// Every optional object present, so any nested path can be set on it.
export const FULL_A: Body = {
  ...BODY_A,
  card: CARD,
  customer: { email: 'jo@example.com', first_name: 'Jo', last_name: 'Doe', browser: { tz: 0 } },
  recurring_data: { days: 30, exp_date: '20301231' },
  bank_account: { bank_name: 'Example Bank', requisite_type: 'card', account_number: '40817810' },
};

export const FULL_B: Body = {
  ...BODY_B,
  card: CARD,
  customer: { email: 'jo@example.com', name: 'Jo', surname: 'Doe', browser: { tz: 0 } },
  recurring_data: { days: 30, exp_date: '20301231' },
  bank_account: { bank_name: 'Example Bank', requisite_type: 'card', account_number: '40817810' },
};

// A copy of body with the dotted path set to value (undefined removes it).
export function withValue(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body);
  const names = path.split('.');
  const last = names.pop() as string;
  let target: Body = copy;
  for (const name of names) target = target[name] as Body;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

export function errorsOf(result: CreatePaymentValidation): FieldError[] {
  return result.ok ? [] : result.errors;
}

export function summaryOf(result: CreatePaymentValidation): string[] {
  return errorsOf(result)
    .map((error) => `${error.code} ${error.field}`)
    .sort();
}
