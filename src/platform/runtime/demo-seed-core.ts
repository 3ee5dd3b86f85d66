import type { AppContext } from '../../app-context.ts';
import { createAppToken } from '../../core-banking/index.ts';
import { reviewBankAccount } from '../../core-banking/index.ts';
import { createBankAccount } from '../../core-banking/index.ts';
import { createBankTransfer } from '../../core-banking/index.ts';
import { createMoneyCharge } from '../../core-banking/index.ts';
import { objectAt } from '../lib/json-path.ts';
import { DEMO_CORE_PAYER, DEMO_CORE_USER } from '../lib/openapi-demo-placeholders.ts';

// The core banking half of the demo seed: the demo person (#1) and the person the money-charge examples ask (#2),
// an approved bank account of the demo person (#1, in GBP: the bank card and transfer examples use it) credited by
// one transfer, a second one awaiting review (#2), and two money charges the demo person was asked for (#1 to pay,
// #2 to decline).

type Inject = (method: 'POST', url: string, authorization: string, body: object) => Promise<Record<string, unknown>>;

const SEED_IBAN = 'GB82WEST12345698765432';
const SEED_PENDING_IBAN = 'GB29NWBK60161331926819';
const SEED_CREDIT_GBP = 500;

export async function seedCoreBanking(context: AppContext, call: Inject, adminKey: string): Promise<void> {
  const person = { company_name: null, wallet_type: 'personal', current_currency: 'GBP', country: 'GB' };
  await call('POST', '/api/admin/v1/users', adminKey, { ...DEMO_CORE_USER, name: 'Ada', surname: 'Lovelace', ...person });
  const payer = await call('POST', '/api/admin/v1/users', adminKey, { ...DEMO_CORE_PAYER, name: 'Alan', surname: 'Turing', ...person });
  const adaId = 1;
  const alanId = Number(objectAt(payer, 'profile')?.['id'] ?? 2);
  const deps = { db: context.database.db, currencies: context.currencies };
  const details = {
    beneficiary_type: 'individual_stakeholder',
    beneficiary_name: 'Ada Lovelace',
    beneficiary_country: 'GB',
    beneficiary_email: DEMO_CORE_USER.email,
  };
  const account = await createBankAccount(deps, adaId, { value: SEED_IBAN, currency: 'GBP', provider: 'iban', accountHolder: 'Ada Lovelace', details });
  await reviewBankAccount(context.database.db, account.id, 'approve');
  // #2 awaits an operator's review (the admin review example); the create example adds #3, the delete example drops it.
  await createBankAccount(deps, adaId, { value: SEED_PENDING_IBAN, currency: 'GBP', provider: 'iban', accountHolder: 'Ada Lovelace', details });
  const seedToken = await createAppToken(context.database.db, 'demo seed');
  await createBankTransfer({ ...deps, masterKey: context.masterKey }, seedToken.record.id, {
    profile_id: adaId,
    amount: SEED_CREDIT_GBP,
    currency: 'GBP',
    direction: 'credit',
    provider: 'demo_seed',
    token: 'demo-seed-credit-1',
    bank_account_id: account.id,
  });
  for (const description of ['Theatre tickets', 'Taxi to the station']) {
    await createMoneyCharge(deps, alanId, { payer: DEMO_CORE_USER.email, amount: 12.5, currency: 'GBP', description, privacy: 'private' });
  }
}
