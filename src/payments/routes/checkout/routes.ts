import formBody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import Type from 'typebox';
import { currencyExponent } from '../../../platform/lib/currencies.ts';
import { processPayment } from '../../flows/process-payment.ts';
import { confirmWalletPayment } from '../../flows/wallet-payment.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { clientAddressBucket, rateLimitHook } from '../../../platform/lib/rate-limits.ts';
import { loadCheckoutPayment, type CheckoutPayment } from '../../flows/checkout-payment.ts';
import { isCheckoutAssetName, readCheckoutAsset } from './assets.ts';
import { parseCardForm, textField } from './card-form.ts';
import { checkoutCsp, CspSourceError } from './csp.ts';
import { destinationOrigins, isSettled, merchantDestination, shopUrl } from './destinations.ts';
import { formatAmount } from '../../../platform/lib/format-amount.ts';
import type { CheckoutLocale } from './locales.ts';
import { registerCheckoutNotFound } from './not-found.ts';
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
import { requestLocale } from './request-locale.ts';
import { registerPayoutRoutes } from './payout-routes.ts';
import { payoutStatusPath } from '../../domain/public-urls.ts';
import { CUSTOMER_CAUSE } from '../../domain/status-cause.ts';
import { pageFrame } from './page-frame.ts';
import { hasSeenResult, seenResultCookie } from './repeat-visit.ts';
import { stateText } from './state-texts.ts';
import { renderRefusedPage } from './status-pages.ts';
import { checkoutJson, wantsJson } from './json-view.ts';
import { registerStepRoutes, stepPageOf, stepUrls } from './step-routes.ts';
import { currentPendingStep } from '../../domain/pending-step.ts';
import { isJsonObject } from '../../../platform/lib/type-guards.ts';

const TokenParams = Type.Object({ token: Type.String({ pattern: '^[0-9a-f]{32}$' }) });
const LocaleQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 64 })) });
const FORM_BODY_LIMIT_BYTES = 16 * 1024;
const AssetParams = Type.Object({ name: Type.String({ maxLength: 64 }) });

type LocaleRequest = { query: { locale?: string | undefined }; headers: { 'accept-language'?: string | undefined } };

// The hosted payment page (spec 1, 6.3): card form → adapter /pay → 3-D Secure or waiting → the merchant's URLs.
// Every form post is answered 303 (post/redirect/get), so Back and Reload never post again; only a refused form
// is rendered as the post's answer (checkout.js turns that history entry into a GET).
export async function checkoutRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  registerCheckoutNotFound(app);
  const context = app.payrail;
  const deps = { context, adapterClient: context.adapterClient };
  const urls = (token: string, locale: CheckoutLocale) => ({
    page: `/checkout/${token}?locale=${locale}`,
    status: `/checkout/${token}/status?locale=${locale}`,
    landing: `/checkout/${token}/return?locale=${locale}`,
  });
  const schema = { hide: true, params: TokenParams, querystring: LocaleQuery };
  const limits = context.config.rateLimits;
  // Card testing goes through this form: each address gets a few tries per window.
  const formPostLimit = rateLimitHook(app, [{ name: 'IP address', max: limits.checkoutPostIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]);

  const load = (token: string): Promise<CheckoutPayment> => loadCheckoutPayment(context, token);
  const localeOf = (request: LocaleRequest, payment: CheckoutPayment): CheckoutLocale =>
    requestLocale(request.query.locale, request.headers['accept-language'], payment.locale);
  const send = (reply: FastifyReply, page: PageResult, statusCode = 200) =>
    reply.code(statusCode).header('content-security-policy', page.csp).header('x-frame-options', 'DENY').type('text/html; charset=utf-8').send(page.html);
  // A page with a form posting to us may be answered 303 → our page → 303 → the merchant: its form-action names
  // the merchant's destinations too.
  const withFormCsp = (page: PageResult, payment: CheckoutPayment): PageResult => ({
    ...page,
    csp: checkoutCsp({ formActionOrigins: destinationOrigins(payment) }),
  });
  const amountText = (payment: CheckoutPayment, locale: CheckoutLocale) =>
    formatAmount(payment.amountMinor, payment.currency, currencyExponent(context.currencies, payment.currency) ?? 2, locale);

  // Where a payment stands decides the page: card form, 3-D Secure step, waiting, or the end.
  type CardPageExtra = Pick<Parameters<typeof renderPaymentPage>[0], 'errors' | 'values' | 'collectCard'>;
  const cardPage = (payment: CheckoutPayment, locale: CheckoutLocale, extra: CardPageExtra = {}) =>
    withFormCsp(
      renderPaymentPage({
        token: payment.token,
        locale,
        product: payment.product,
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        exponent: currencyExponent(context.currencies, payment.currency) ?? 2,
        actionUrl: urls(payment.token, locale).page,
        ...pageFrame(payment),
        ...extra,
      }),
      payment,
    );

  // A walletToken payment asks the customer to confirm a charge to the saved card instead (wallet-page.ts).
  const walletPage = (payment: CheckoutPayment, locale: CheckoutLocale) =>
    withFormCsp(
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
        ...pageFrame(payment),
      }),
      payment,
    );

  const waitingPage = (payment: CheckoutPayment, locale: CheckoutLocale, goTo: string | null = null) =>
    renderWaitingPage({ locale, statusUrl: urls(payment.token, locale).status, ...pageFrame(payment), goTo });

  // landing: the page after someone else's form post (an issuer's 3-D Secure page, TermUrl). That page's CSP
  // form-action may not allow the merchant's origin, so a destination is reached by checkout.js, at once; and the
  // 3-D Secure step it returns from is done, so a pending payment waits instead of being sent there again.
  const showState = async (reply: FastifyReply, log: FastifyBaseLogger, payment: CheckoutPayment, locale: CheckoutLocale, landing: boolean) => {
    const request = reply.request;
    // A payout has no customer page here: a browser that follows an old link is sent to its status page.
    if (payment.operationType === 'payout') return reply.redirect(payoutStatusPath(payment.token, locale), 303);
    // A secure code or more data the adapter asks for (issue 10) comes before any destination.
    const stepPage = stepPageOf(payment, locale, amountText(payment, locale), stepUrls(payment.token, locale), null, pageFrame(payment));
    if (stepPage) return send(reply, withFormCsp(stepPage, payment));
    const destination = merchantDestination(payment);
    if (destination !== null) {
      const reachable = !landing && destinationOrigins(payment).includes(new URL(destination).origin.toLowerCase());
      return reachable ? reply.redirect(destination, 303) : send(reply, waitingPage(payment, locale, destination));
    }
    const { status } = payment;
    if (status === 'init' && payment.walletToken !== null) return send(reply, walletPage(payment, locale));
    if (status === 'init') return send(reply, cardPage(payment, locale, { collectCard: payment.paymentMethod === 'card' }));
    const redirect = payment.redirectRequest;
    if (status === 'pending' && redirect !== null && !landing) {
      return send(reply, redirectOrWaitingPage(log, { locale, redirect, statusUrl: urls(payment.token, locale).status, ...pageFrame(payment) }));
    }
    if (status === 'pending' || status === 'processing') return send(reply, waitingPage(payment, locale));
    // The line about a link opened again is for a repeat visit only; the first view of the result is remembered.
    const repeatVisit = hasSeenResult(request.headers.cookie);
    if (!repeatVisit) reply.header('set-cookie', seenResultCookie(payment.token, request.protocol === 'https'));
    return send(
      reply,
      renderResultPage({
        locale,
        status,
        product: payment.product,
        amountText: amountText(payment, locale),
        reason: payment.declineReason,
        backUrl: shopUrl(payment),
        ...pageFrame(payment),
        note: repeatVisit ? (stateText(locale).reopened[status] ?? null) : null,
      }),
      status === 'expired' ? EXPIRED_LINK_STATUS : 200,
    );
  };

  // A payment whose lifetime ended before its form was taken (the expiry worker moves it to expired later).
  const expiredPage = (payment: CheckoutPayment, locale: CheckoutLocale) =>
    renderResultPage({
      locale,
      status: 'expired',
      product: payment.product,
      amountText: amountText(payment, locale),
      reason: null,
      backUrl: shopUrl(payment),
      ...pageFrame(payment),
    });

  routes.get('/checkout/:token', { schema }, async (request, reply) => {
    const payment = await load(request.params.token);
    // A payout has no customer page here: a browser that follows an old link is sent to its status page.
    const browser = (request.headers.accept ?? '').includes('text/html');
    if (payment.operationType === 'payout' && browser) return reply.redirect(payoutStatusPath(payment.token, localeOf(request, payment)), 303);
    if (wantsJson(request.headers.accept, payment)) return reply.send(await checkoutJson(deps, payment, request.ip));
    return showState(reply, request.log, payment, localeOf(request, payment), false);
  });

  routes.post('/checkout/:token', { schema, onRequest: formPostLimit }, async (request, reply) => {
    const payment = await load(request.params.token);
    const locale = localeOf(request, payment);
    const page = urls(payment.token, locale).page;
    if (payment.status !== 'init' || payment.walletToken !== null || payment.operationType === 'payout') return reply.redirect(page, 303);
    // A gateway that takes no card gets none: whatever the form carried is not read.
    if (payment.paymentMethod !== 'card') {
      const processed = await processPayment(deps, payment, null, { ip: request.ip }, CUSTOMER_CAUSE).catch(refusalBeforeSending);
      if ('expired' in processed) return send(reply, expiredPage(payment, locale), EXPIRED_LINK_STATUS);
      if ('refusedStatus' in processed) return send(reply, renderRefusedPage({ locale, ...pageFrame(payment) }), processed.refusedStatus);
      return reply.redirect(page, 303);
    }
    const form = isJsonObject(request.body) ? request.body : {}; // @fastify/formbody: field name → value
    const parsed = parseCardForm(form);
    if ('invalidFields' in parsed) {
      const errors = parsed.invalidFields.map((field) => ({ field, message: cardFieldMessage(locale, field, parsed.problems[field], parsed.brand) }));
      const typed = (name: string) => textField(form, name);
      return send(reply, cardPage(payment, locale, { errors, values: { holder: typed('holder'), expires: typed('expires') } }), 422);
    }
    const processed = await processPayment(deps, payment, parsed.card, { ip: request.ip }, CUSTOMER_CAUSE).catch(refusalBeforeSending);
    // A form posted after expires_at, before the expiry worker ran: nothing was sent, the page says it expired.
    if ('expired' in processed) return send(reply, expiredPage(payment, locale), EXPIRED_LINK_STATUS);
    if ('refusedStatus' in processed) return send(reply, renderRefusedPage({ locale, ...pageFrame(payment) }), processed.refusedStatus);
    return reply.redirect(page, 303);
  });

  // A walletToken payment's Confirm (flows/wallet-payment.ts): rate-limited like the card form; a post another site
  // made (Fetch Metadata) only shows the customer the page.
  routes.post('/checkout/:token/confirm', { schema, onRequest: formPostLimit }, async (request, reply) => {
    const payment = await load(request.params.token);
    const locale = localeOf(request, payment);
    const page = urls(payment.token, locale).page;
    if (payment.status !== 'init' || payment.walletToken === null || isCrossSitePost(request.headers['sec-fetch-site'])) {
      return reply.redirect(page, 303);
    }
    const processed = await confirmWalletPayment(deps, payment, { ip: request.ip }).catch(refusalBeforeSending);
    if ('refusedStatus' in processed) return send(reply, renderRefusedPage({ locale, ...pageFrame(payment) }), processed.refusedStatus);
    return reply.redirect(page, 303);
  });

  // TermUrl of 3-D Secure and the landing after /pay: GET, or POST as issuers do (answered 303 to the GET).
  // The customer comes back from the bank in the language the payment page spoke: the payment's locale, which the
  // issuer's post does not carry, before the browser's Accept-Language.
  const returnLocaleOf = (request: LocaleRequest, payment: CheckoutPayment): CheckoutLocale =>
    localeOf({ headers: request.headers, query: { locale: request.query.locale ?? payment.locale ?? undefined } }, payment);
  routes.get('/checkout/:token/return', { schema }, async (request, reply) => {
    const payment = await load(request.params.token);
    return showState(reply, request.log, payment, returnLocaleOf(request, payment), true);
  });
  routes.post('/checkout/:token/return', { schema }, async (request, reply) => {
    const payment = await load(request.params.token);
    return reply.redirect(urls(payment.token, returnLocaleOf(request, payment)).landing, 303);
  });

  await registerStepRoutes(app, deps, { load, localeOf, send, withFormCsp, amountText, formPostLimit });
  await registerPayoutRoutes(app, { load, localeOf, send, amountText });

  routes.get('/checkout/:token/status', { schema }, async (request) => {
    const payment = await load(request.params.token);
    const locale = localeOf(request, payment);
    // An authorization (two-step payment) is the end of the customer's part: the merchant confirms it later.
    const settled = isSettled(payment) || payment.status === 'authorized';
    // A step the provider asked for meanwhile (issue 10) ends the customer's wait too: the page moves on to it.
    if (!settled && currentPendingStep(payment) !== null) {
      return { status: payment.status, final: true, redirectUrl: stepUrls(payment.token, locale).page };
    }
    return { status: payment.status, final: settled, redirectUrl: settled ? (merchantDestination(payment) ?? urls(payment.token, locale).page) : null };
  });

  routes.get('/checkout/assets/:name', { schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    if (!isCheckoutAssetName(request.params.name)) throw new ApiError('not_found', 404, 'no such asset');
    const asset = readCheckoutAsset(request.params.name);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.header('content-type', asset.contentType).header('etag', asset.etag).header('cache-control', 'public, max-age=300').send(asset.body);
  });
  // Browsers ask every origin for /favicon.ico; the checkout's SVG icon answers instead of a logged 404.
  routes.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/checkout/assets/favicon.svg', 301));
}

// An expired payment link is gone for good: 410, with the page that says so.
const EXPIRED_LINK_STATUS = 410;

// Refusals before anything reached a gateway: a disabled merchant (merchant_disabled), or no gateway of the
// merchant that takes this payment (no_gateway: none active, or no routing rule accepts it). The customer gets a
// page saying the card was not charged, not an error in JSON.
const REFUSED_BEFORE_SENDING: Readonly<Record<string, number>> = { merchant_disabled: 403, no_gateway: 422 };

function refusalBeforeSending(error: unknown): { refusedStatus: number } | { expired: true } {
  if (error instanceof ApiError && error.code === 'payment_expired') return { expired: true };
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
    return renderWaitingPage({ locale: input.locale, statusUrl: input.statusUrl, merchant: input.merchant, testMode: input.testMode });
  }
}
