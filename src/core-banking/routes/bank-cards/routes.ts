import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { issueBankCard } from '../../flows/bank-cards.ts';
import { createCardPageLink } from '../../flows/card-page-links.ts';
import type { CardPagePurpose } from '../../../platform/lib/card-page-token.ts';
import {
  BankCardCreateBody,
  BankCardCreateResponse,
  CardIssueRefused,
  CardLinkQuery,
  CardLinkResponse,
  CardNotActive,
  CardNotFound,
  CardPathParams,
  CoreErrorEnvelope,
  IssuerUnreachable,
  MerchantDisabled,
  MerchantKeyRefused,
} from './schemas.ts';

const tags = ['core banking: bank cards'];
const security = [{ appToken: [] }];
const errors = { 401: MerchantKeyRefused, 403: MerchantDisabled, 422: CoreErrorEnvelope, 429: CoreErrorEnvelope };

// Internal card operations (spec 4, app-token scope): issue a card through the key's card issuer; hand out links to
// the hosted pages that show a card's data or set its PIN.
export async function bankCardRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, masterKey, config } = app.payrail;

  routes.post(
    '/api/internal/v1/bank_cards',
    {
      schema: {
        operationId: 'coreIssueBankCard',
        summary: 'Issue a bank card on an approved bank account',
        description:
          'Internal services only (header app-token). The card issuer of the key\'s environment issues the card (success true) or rejects the application (HTTP 200, success false, errors.issuer). Sandbox keys use the built-in sandbox issuer: holder_last_name "Decline" is rejected. Production keys answer 422 issuer_unavailable until a real issuer is configured. A bank account holds at most 5 active cards.',
        tags,
        security,
        body: BankCardCreateBody,
        response: { 200: BankCardCreateResponse, ...errors, 422: CardIssueRefused, 502: IssuerUnreachable },
      },
    },
    async (request) => {
      const body = request.body;
      const issued = await issueBankCard(
        { db: database.db, masterKey },
        {
          merchantPrivateKey: body.merchant_private_key,
          bankAccountId: body.bank_account_id,
          cardType: body.card_type,
          holderFirstName: body.holder_first_name,
          holderLastName: body.holder_last_name,
          phone: body.phone,
          holderPhone: body.holder_phone,
          countryCode: body.country_code,
          delivery: body.bank_card_delivery_attributes,
        },
      );
      const { card } = issued;
      if (issued.outcome === 'rejected') {
        const reason = card.rejectionReason ?? 'rejected by the card issuer';
        return { success: false as const, result: { id: card.id, status: 'rejected' as const, reason }, errors: { issuer: reason } };
      }
      return {
        success: true as const,
        result: {
          id: card.id,
          outer_id: card.outerId ?? '',
          card_type: card.cardType,
          status: 'active' as const,
          card_mask: card.panMask ?? '',
          exp_month: card.expMonth ?? 0,
          exp_year: card.expYear ?? 0,
          bank_account_id: card.bankAccountId,
          holder_first_name: card.holderFirstName,
          holder_last_name: card.holderLastName,
        },
        errors: null,
      };
    },
  );

  const linkRoute = (path: string, purpose: CardPagePurpose, operationId: string, summary: string, description: string) =>
    routes.get(
      `/api/internal/v1/bank_cards/:id/${path}`,
      {
        schema: {
          operationId,
          summary,
          description: `Internal services only (header app-token). ${description} The link is signed, lasts five minutes, works once, and a newer link of the same card voids it. The card must belong to the merchant of merchant_private_key (404 otherwise) and be active (409 otherwise).`,
          tags,
          security,
          params: CardPathParams,
          querystring: CardLinkQuery,
          response: { 200: CardLinkResponse, ...errors, 404: CardNotFound, 409: CardNotActive },
        },
      },
      async (request) => {
        const link = await createCardPageLink(
          { db: database.db, masterKey, publicUrl: config.publicUrl },
          { pathId: request.params.id, merchantPrivateKey: request.query.merchant_private_key, purpose },
        );
        return { success: true as const, result: { url: link.url, expires_at: link.expiresAt.toISOString() }, errors: null };
      },
    );

  linkRoute(
    'show_card_data',
    'data',
    'coreShowCardDataLink',
    'A link to a hosted page showing the full card data',
    "Open the url in the cardholder's browser: the page shows the card number, expiry, CVV and holder; the API caller never receives them.",
  );
  linkRoute(
    'show_set_card_pin',
    'pin',
    'coreSetCardPinLink',
    'A link to a hosted page where the cardholder sets the card PIN',
    "Open the url in the cardholder's browser: the page takes a 4-digit PIN twice and hands it to the card issuer; Payrail records only when it was set.",
  );
}
