import { parseCardReference } from '../domain/bank-card-rules.ts';
import { signCardPageToken, type CardPagePurpose } from '../../platform/lib/card-page-token.ts';
import { CoreApiError } from '../../platform/lib/core-errors.ts';
import { randomBase64Url } from '../../platform/lib/crypto.ts';
import type { Db } from '../../platform/database.ts';
import { findMerchantCard, setPageNonce } from '../store/bank-cards-repo.ts';
import { authenticateCardMerchantKey } from './card-merchant-key.ts';

// GET /api/internal/v1/bank_cards/{id}/show_card_data | show_set_card_pin (spec 4): instead of card data, a
// short-lived single-use address of a hosted page that shows the data (or takes the PIN) in the cardholder's own
// browser, so the API caller never holds a full card number, CVV or PIN. A new link voids the card's earlier one.

const NONCE_BYTES = 16;

export interface CardPageLink {
  url: string;
  expiresAt: Date;
}

const cardNotFound = () =>
  new CoreApiError('card_not_found', 404, 'no card of this merchant has this id', [
    { code: 'card_not_found', kind: 'not_found', message: 'no card of this merchant has this id' },
  ]);

export async function createCardPageLink(
  deps: { db: Db; masterKey: Buffer; publicUrl: string },
  input: { pathId: string; merchantPrivateKey: string; purpose: CardPagePurpose },
): Promise<CardPageLink> {
  const merchant = await authenticateCardMerchantKey(deps.db, input.merchantPrivateKey);
  const reference = parseCardReference(input.pathId);
  if (reference === null) throw cardNotFound();
  const card = await findMerchantCard(deps.db, reference.kind === 'id' ? { id: reference.id } : { outerId: reference.outerId }, merchant);
  if (card === null) throw cardNotFound();
  if (card.status !== 'active') {
    const message = `the card is ${card.status}: its data cannot be shown nor its PIN set`;
    throw new CoreApiError('card_not_active', 409, message, [{ code: 'card_not_active', kind: 'bank_card', message }]);
  }
  const nonce = randomBase64Url(NONCE_BYTES);
  await setPageNonce(deps.db, card.id, nonce);
  const { token, expiresAt } = await signCardPageToken(deps.masterKey, { cardId: card.id, purpose: input.purpose, nonce });
  return { url: `${deps.publicUrl}/cards/${token}`, expiresAt };
}
