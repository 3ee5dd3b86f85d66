import formBody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import Type from 'typebox';
import { currencyExponent } from '../domain/currencies.ts';
import type { PaymentStatus } from '../domain/payment-status.ts';
import { processPayment } from '../flows/process-payment.ts';
import { confirmWalletPayment } from '../flows/wallet-payment.ts';
import type { RedirectRequest } from '../contract/adapter-contract.ts';
import { ApiError } from '../lib/errors.ts';
import { clientAddressBucket, rateLimitHook } from '../lib/rate-limits.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { loadCheckoutPayment } from '../flows/checkout-payment.ts';
import { isCheckoutAssetName, readCheckoutAsset } from './assets.ts';
import { parseCardForm } from './card-form.ts';
import { CspSourceError } from './csp.ts';
import { isSettled, merchantDestination } from './destinations.ts';
import { formatAmount } from './format-amount.ts';
import { normalizeLocale, type CheckoutLocale } from './locales.ts';
import {
  cardFieldMessage,
  isCrossSitePost,
  renderPaymentPage,
  renderWalletPage,
  renderRedirectPage,
  renderResultPage,
  renderWaitingPage,
  type PageResult,
  type RedirectPageInput,
} from './pages.ts';
import { renderRefusedPage } from './status-pages.ts';
import { checkoutJson, wantsJson } from './json-view.ts';
import { registerStepRoutes, stepPageOf, stepUrls } from './step-routes.ts';
import { currentPendingStep } from '../domain/pending-step.ts';

const TokenParams = Type.Object({ token: Type.String({ pattern: '^[0-9a-f]{32}$' }) });
const LocaleQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 5 })) });
const FORM_BODY_LIMIT_BYTES = 16 * 1024;
const AssetParams = Type.Object({ name: Type.String({ maxLength: 64 }) });

// The hosted payment page (spec 1, 6.3): card form → adapter /pay → 3-D Secure or waiting → the merchant's URLs.
export async function checkoutRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  const context = app.payrail;
  const deps = { context, adapterClient: context.adapterClient };
  const urls = (token: string) => ({
    page: `/checkout/${token}`,
    status: `/checkout/${token}/status`,
    back: `/checkout/${token}/return`,
  });
  const schema = { hide: true, params: TokenParams, querystring: LocaleQuery };
  const limits = context.config.rateLimits;
  // Card testing goes through this form: each address gets a few tries per window.
  const formPostLimit = rateLimitHook(app, [{ name: 'IP address', max: limits.checkoutPostIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]);

  const load = (token: string): Promise<PaymentRow> => loadCheckoutPayment(context.database.db, token);
  const send = (reply: FastifyReply, page: PageResult, statusCode = 200) =>
    reply.code(statusCode).header('content-security-policy', page.csp).header('x-frame-options', 'DENY').type('text/html; charset=utf-8').send(page.html);
  const amountText = (payment: PaymentRow, locale: CheckoutLocale) =>
    formatAmount(payment.amountMinor, payment.currency, currencyExponent(context.currencies, payment.currency) ?? 2, locale);

  // Where a payment stands decides the page: card form, 3-D Secure step, waiting, or the end.
  const cardPage = (payment: PaymentRow, locale: CheckoutLocale, extra: Pick<Parameters<typeof renderPaymentPage>[0], 'errors' | 'values'> = {}) =>
    renderPaymentPage({
      token: payment.token,
      locale,
      product: payment.product,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      exponent: currencyExponent(context.currencies, payment.currency) ?? 2,
      actionUrl: `${urls(payment.token).page}?locale=${locale}`,
      ...extra,
    });

  // A walletToken payment asks the customer to confirm a charge to the saved card instead (wallet-page.ts).
  const walletPage = (payment: PaymentRow, locale: CheckoutLocale) =>
    renderWalletPage({
      token: payment.token,
      locale,
      product: payment.product,
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      exponent: currencyExponent(context.currencies, payment.currency) ?? 2,
      cardMask: payment.cardMask,
      cardHolder: payment.cardHolder,
      actionUrl: `/checkout/${payment.token}/confirm?locale=${locale}`,
    });

  // After a form post (ours or an issuer's 3-D Secure page), CSP form-action forbids redirecting to the
  // merchant's origin, so the waiting page's script navigates there instead, at its first poll.
  const showState = (reply: FastifyReply, payment: PaymentRow, locale: CheckoutLocale, afterFormPost = false) => {
    // A secure code or more data the adapter asks for (issue 10) comes before any destination.
    const stepPage = stepPageOf(payment, locale, amountText(payment, locale), stepUrls(payment.token, locale));
    if (stepPage) return send(reply, stepPage);
    const destination = merchantDestination(payment);
    if (destination && afterFormPost) return send(reply, renderWaitingPage({ locale, statusUrl: urls(payment.token).status }));
    if (destination) return reply.redirect(destination, 303);
    const status = payment.status as PaymentStatus;
    if (status === 'init') return send(reply, payment.walletToken === null ? cardPage(payment, locale) : walletPage(payment, locale));
    if (status === 'pending' || status === 'processing') return send(reply, renderWaitingPage({ locale, statusUrl: urls(payment.token).status }));
    return send(reply, renderResultPage({ locale, status, product: payment.product, amountText: amountText(payment, locale), reason: payment.declineReason }));
  };

  routes.get('/checkout/:token', { schema }, async (request, reply) => {
    const payment = await load(request.params.token);
    const locale = normalizeLocale(request.query.locale ?? payment.locale);
    if (wantsJson(request.headers.accept, payment)) return reply.send(await checkoutJson(deps, payment, request.ip));
    return showState(reply, payment, locale);
  });

  routes.post('/checkout/:token', { schema, onRequest: formPostLimit }, async (request, reply) => {
    const payment = await load(request.params.token);
    const locale = normalizeLocale(request.query.locale ?? payment.locale);
    if (payment.status !== 'init' || payment.walletToken !== null) return reply.redirect(urls(payment.token).back, 303);
    const form = (request.body ?? {}) as Record<string, unknown>; // @fastify/formbody: field name → value
    const parsed = parseCardForm(form);
    if ('invalidFields' in parsed) {
      const errors = parsed.invalidFields.map((field) => ({ field, message: cardFieldMessage(locale, field) }));
      const typed = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
      return send(reply, cardPage(payment, locale, { errors, values: { holder: typed('holder'), expires: typed('expires') } }), 422);
    }
    const processed = await processPayment(deps, payment, parsed.card, { ip: request.ip }).catch(refusalBeforeSending);
    if ('refusedStatus' in processed) return send(reply, renderRefusedPage({ locale }), processed.refusedStatus);
    const redirect = processed.redirectRequest as RedirectRequest | null;
    if (processed.status === 'pending' && redirect) {
      return send(reply, redirectOrWaitingPage(request.log, { locale, redirect, statusUrl: urls(payment.token).status }));
    }
    return showState(reply, processed, locale, true);
  });

  // A walletToken payment's Confirm (flows/wallet-payment.ts): rate-limited like the card form; a post another site
  // made (Fetch Metadata) only shows the customer the page.
  routes.post('/checkout/:token/confirm', { schema, onRequest: formPostLimit }, async (request, reply) => {
    const payment = await load(request.params.token);
    const locale = normalizeLocale(request.query.locale ?? payment.locale);
    if (payment.status !== 'init' || payment.walletToken === null || isCrossSitePost(request.headers['sec-fetch-site'])) {
      return reply.redirect(urls(payment.token).back, 303);
    }
    const processed = await confirmWalletPayment(deps, payment, { ip: request.ip }).catch(refusalBeforeSending);
    if ('refusedStatus' in processed) return send(reply, renderRefusedPage({ locale }), processed.refusedStatus);
    const redirect = processed.redirectRequest as RedirectRequest | null;
    if (processed.status === 'pending' && redirect) {
      return send(reply, redirectOrWaitingPage(request.log, { locale, redirect, statusUrl: urls(payment.token).status }));
    }
    return showState(reply, processed, locale, true);
  });

  // TermUrl of 3-D Secure and the landing after /pay: GET, or POST as issuers do.
  const landing = async (request: { method: string; params: { token: string }; query: { locale?: string } }, reply: FastifyReply) => {
    const payment = await load(request.params.token);
    return showState(reply, payment, normalizeLocale(request.query.locale ?? payment.locale), true);
  };
  routes.get('/checkout/:token/return', { schema }, landing);
  routes.post('/checkout/:token/return', { schema }, landing);

  await registerStepRoutes(app, deps, { load, send, amountText, redirectPage: redirectOrWaitingPage, formPostLimit });

  routes.get('/checkout/:token/status', { schema }, async (request) => {
    const payment = await load(request.params.token);
    // An authorization (two-step payment) is the end of the customer's part: the merchant confirms it later.
    const settled = isSettled(payment) || payment.status === 'authorized';
    // A step the provider asked for meanwhile (issue 10) ends the customer's wait too: the page moves on to it.
    if (!settled && currentPendingStep(payment) !== null) {
      return { status: payment.status, final: true, redirectUrl: stepUrls(payment.token, normalizeLocale(request.query.locale ?? payment.locale)).page };
    }
    return { status: payment.status, final: settled, redirectUrl: settled ? (merchantDestination(payment) ?? urls(payment.token).back) : null };
  });

  routes.get('/checkout/assets/:name', { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    if (!isCheckoutAssetName(request.params.name)) throw new ApiError('not_found', 404, 'no such asset');
    const asset = readCheckoutAsset(request.params.name);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.header('content-type', asset.contentType).header('etag', asset.etag).header('cache-control', 'public, max-age=300').send(asset.body);
  });
}

// Refusals before anything reached a gateway: a disabled merchant (merchant_disabled), or no gateway of the
// merchant that takes this payment (no_gateway: none active, or no routing rule accepts it). The customer gets a
// page saying the card was not charged, not an error in JSON.
const REFUSED_BEFORE_SENDING: Readonly<Record<string, number>> = { merchant_disabled: 403, no_gateway: 422 };

function refusalBeforeSending(error: unknown): { refusedStatus: number } {
  const refusedStatus = error instanceof ApiError ? REFUSED_BEFORE_SENDING[error.code] : undefined;
  if (refusedStatus === undefined) throw error;
  return { refusedStatus };
}

// A gateway URL the page's CSP cannot name: the card is already with the gateway, so the customer waits
// on our page while the status checker finishes the payment.
function redirectOrWaitingPage(log: FastifyBaseLogger, input: RedirectPageInput): PageResult {
  try {
    return renderRedirectPage(input);
  } catch (error) {
    if (!(error instanceof CspSourceError)) throw error;
    log.warn({ redirectType: input.redirect.type, reason: error.message }, 'gateway redirect_request cannot be shown; the waiting page stands in');
    return renderWaitingPage({ locale: input.locale, statusUrl: input.statusUrl });
  }
}
