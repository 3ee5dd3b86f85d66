// The dashboard's payout form as the merchant API's payout body (spec 2.4): the page builds the body a client would
// send and hands it to the API's own validator (payments' createPayoutValidator), so the form obeys the same rules
// and reports the same field errors. Only the amount is the form's own: people type "12.50", the API takes minor units.

export const PAYOUT_KINDS = ['card', 'sbp', 'account'] as const;
export type PayoutKind = (typeof PAYOUT_KINDS)[number];

export const PAYOUT_FORM_FIELD_NAMES = [
  'kind',
  'amount',
  'currency',
  'pan',
  'bankName',
  'accountNumber',
  'email',
  'phone',
  'firstName',
  'lastName',
  'middleName',
  'orderNumber',
  'callbackUrl',
] as const;
export type PayoutFormField = (typeof PAYOUT_FORM_FIELD_NAMES)[number];
export type PayoutFormValues = Record<PayoutFormField, string>;

// Which form field each field path of the API body stands for: its errors are shown there.
const FIELD_OF_BODY_PATH: Readonly<Record<string, PayoutFormField>> = {
  amount: 'amount',
  currency: 'currency',
  orderNumber: 'orderNumber',
  callbackUrl: 'callbackUrl',
  bank_account: 'kind',
  'bank_account.requisite_type': 'kind',
  'bank_account.bank_name': 'bankName',
  'bank_account.account_number': 'accountNumber',
  card: 'pan',
  'card.pan': 'pan',
  customer: 'email',
  'customer.email': 'email',
  'customer.phone': 'phone',
  'customer.first_name': 'firstName',
  'customer.last_name': 'lastName',
  'customer.middle_name': 'middleName',
};

export function formFieldOfBodyPath(path: string | undefined): PayoutFormField | null {
  return path === undefined ? null : (FIELD_OF_BODY_PATH[path] ?? null);
}

export function payoutKindOf(text: string): PayoutKind {
  return PAYOUT_KINDS.find((kind) => kind === text) ?? 'card';
}

// The body a client would send for these fields: a blank field is left out (as a client leaves it out), the fields
// of the other requisite kinds are not sent, and `amountMinor` is the form's amount already in minor units (null:
// it could not be read; the body then has none and the caller reports why).
export function payoutBodyOf(values: PayoutFormValues, amountMinor: number | null): Record<string, unknown> {
  const given = (field: PayoutFormField) => {
    const value = values[field].trim();
    return value === '' ? undefined : value;
  };
  const kind = payoutKindOf(values.kind);
  const bankAccount = withoutBlank({
    requisite_type: kind,
    bank_name: kind === 'card' ? undefined : given('bankName'),
    account_number: kind === 'account' ? given('accountNumber') : undefined,
  });
  const customer = withoutBlank({
    email: given('email'),
    phone: given('phone'),
    first_name: given('firstName'),
    last_name: given('lastName'),
    middle_name: given('middleName'),
  });
  const pan = kind === 'card' ? given('pan') : undefined;
  return withoutBlank({
    amount: amountMinor ?? undefined,
    currency: given('currency')?.toUpperCase(),
    orderNumber: given('orderNumber'),
    callbackUrl: given('callbackUrl'),
    bank_account: bankAccount,
    card: pan === undefined ? undefined : { pan },
    customer,
  });
}

function withoutBlank(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

// What a page shows of a payout's requisite: the bank in clear, an account number or phone by its last digits only.
export function maskedTail(text: string, visible = 4): string {
  const compact = text.replace(/\s+/g, '');
  if (compact.length <= visible) return '•'.repeat(compact.length);
  return `••••${compact.slice(-visible)}`;
}
