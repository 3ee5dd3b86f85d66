import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import Type from 'typebox';
import type { CheckoutPayment } from '../../flows/checkout-payment.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import type { CheckoutLocale } from './locales.ts';
import { pageFrame } from './page-frame.ts';
import type { PageResult } from './layout.ts';
import { renderPayoutPage } from './payout-page.ts';

export interface PayoutRouteHelpers {
  load(token: string): Promise<CheckoutPayment>;
  localeOf(request: { query: { locale?: string | undefined }; headers: { 'accept-language'?: string | undefined } }, payment: CheckoutPayment): CheckoutLocale;
  send(reply: FastifyReply, page: PageResult, statusCode?: number): FastifyReply;
  amountText(payment: CheckoutPayment, locale: CheckoutLocale): string;
}

const TokenParams = Type.Object({ token: Type.String({ pattern: '^[0-9a-f]{32}$' }) });
const LocaleQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 64 })) });

// A payout's processingUrl and selectorUrl (issue 19): its status, read-only, as a page in a browser and as JSON
// for Accept: application/json. Any other token is an unknown link here, as a payout's is on the checkout's pages.
export async function registerPayoutRoutes(app: FastifyInstance, helpers: PayoutRouteHelpers): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.get('/payouts/:token', { schema: { hide: true, params: TokenParams, querystring: LocaleQuery } }, async (request, reply) => {
    const payout = await helpers.load(request.params.token);
    if (payout.operationType !== 'payout') throw new ApiError('not_found', 404, 'payout not found');
    if ((request.headers.accept ?? '').includes('application/json')) {
      return reply.header('cache-control', 'no-store').send({
        success: true,
        token: payout.token,
        payout: { token: payout.token, status: payout.status },
        payment: { amount: payout.amountMinor, currency: payout.currency, status: payout.status },
      });
    }
    const locale = helpers.localeOf(request, payout);
    const page = renderPayoutPage({
      locale,
      status: payout.status,
      amountText: helpers.amountText(payout, locale),
      orderNumber: payout.orderNumber,
      ...pageFrame(payout),
    });
    reply.header('cache-control', 'no-store');
    return helpers.send(reply, page);
  });
}
