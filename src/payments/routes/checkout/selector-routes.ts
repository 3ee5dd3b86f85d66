import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import Type from 'typebox';
import { currencyExponent } from '../../../platform/lib/currencies.ts';
import { providerCheckoutPath } from '../../domain/selector-urls.ts';
import { chooseProvider, providerChoicesFor } from '../../flows/provider-selection.ts';
import { formatAmount } from '../../../platform/lib/format-amount.ts';
import type { PageResult } from './layout.ts';
import type { CheckoutLocale } from './locales.ts';
import { requestLocale } from './request-locale.ts';
import { renderSelectorPage, renderUnknownPaymentPage, renderUnknownProviderPage } from './selector-page.ts';

// Any text: an unknown token gets the not-found page rather than a validation error.
const SelectorParams = Type.Object({ token: Type.String({ maxLength: 128 }) });
const ChoiceParams = Type.Object({ token: Type.String({ maxLength: 128 }), alias: Type.String({ maxLength: 128 }) });
const LocaleQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 64 })) });
type LocaleRequest = { query: { locale?: string | undefined }; headers: { 'accept-language'?: string | undefined } };
const localeOf = (request: LocaleRequest, paymentLocale?: string) => requestLocale(request.query.locale, request.headers['accept-language'], paymentLocale);

// spec 2.2 selectorUrl: the customer picks the gateway; with a single one, or with routing, the page forwards at once.
export async function selectorRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const context = app.payrail;
  const paymentPage = (token: string, locale: CheckoutLocale) => `/checkout/${token}?locale=${locale}`;
  const selectorPath = (token: string, locale: CheckoutLocale) => `/checkout/${token}/select?locale=${locale}`;
  const send = (reply: FastifyReply, page: PageResult, statusCode = 200) =>
    reply.code(statusCode).header('content-security-policy', page.csp).header('x-frame-options', 'DENY').type('text/html; charset=utf-8').send(page.html);

  routes.get('/checkout/:token/select', { schema: { hide: true, params: SelectorParams, querystring: LocaleQuery } }, async (request, reply) => {
    const choices = await providerChoicesFor(context, request.params.token);
    if (!choices) return send(reply, renderUnknownPaymentPage(localeOf(request)), 404);
    const { payment, aliases, merchantDisplayName } = choices;
    const locale = localeOf(request, payment.locale);
    // A payment already under way (or over) has its gateway: its page shows where it stands.
    if (payment.status !== 'init') return reply.redirect(paymentPage(payment.token, locale), 303);
    // One gateway, or routing: the service picks, nothing to choose.
    if (aliases.length === 1 || choices.routed) return reply.redirect(paymentPage(payment.token, locale), 303);
    const exponent = currencyExponent(context.currencies, payment.currency) ?? 2;
    return send(
      reply,
      renderSelectorPage({
        locale,
        merchant: merchantDisplayName,
        testMode: payment.environment === 'sandbox',
        product: payment.product,
        amountText: formatAmount(payment.amountMinor, payment.currency, exponent, locale),
        providers: aliases.map((alias) => ({ alias, href: providerCheckoutPath(payment.token, alias, locale) })),
      }),
    );
  });

  routes.get('/checkout/:token/via/:alias', { schema: { hide: true, params: ChoiceParams, querystring: LocaleQuery } }, async (request, reply) => {
    const { token, alias } = request.params;
    const outcome = await chooseProvider(context, token, alias);
    if (outcome.kind === 'unknown_payment') return send(reply, renderUnknownPaymentPage(localeOf(request)), 404);
    const locale = localeOf(request, outcome.payment.locale);
    // A gateway disabled since the page was shown: back to the current choices.
    if (outcome.kind === 'unknown_gateway') return reply.redirect(`/checkout/${outcome.payment.token}/select?locale=${locale}`, 303);
    return reply.redirect(paymentPage(outcome.payment.token, locale), 303);
  });

  // spec 2.2: an entry of processingUrl when several providers are offered. The checkout's own pages
  // (/checkout/:token/select, /status, …) are static segments and win; no gateway alias may take their names.
  routes.get('/checkout/:token/:alias', { schema: { hide: true, params: ChoiceParams, querystring: LocaleQuery } }, async (request, reply) => {
    const { token, alias } = request.params;
    const outcome = await chooseProvider(context, token, alias);
    if (outcome.kind === 'unknown_payment') return send(reply, renderUnknownPaymentPage(localeOf(request)), 404);
    const locale = localeOf(request, outcome.payment.locale);
    if (outcome.kind === 'unknown_gateway') return send(reply, renderUnknownProviderPage(locale, selectorPath(outcome.payment.token, locale)), 404);
    return reply.redirect(paymentPage(outcome.payment.token, locale), 303);
  });
}
