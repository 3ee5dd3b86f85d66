import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, onRequestAsyncHookHandler } from 'fastify';
import Type from 'typebox';
import { currentPendingStep, nextStepRefusal, resendWaitS, SECURE_CODE_ATTEMPTS_MAX, secureCodeRefusal } from '../../domain/pending-step.ts';
import { STEP_FIELD_ERROR_CODES, submitNextStep } from '../../flows/next-payment-step.ts';
import type { ProcessingDeps } from '../../flows/process-payment.ts';
import { resendSecureCode, submitSecureCode } from '../../flows/secure-code.ts';
import type { StepOutcome } from '../../flows/step-exchange.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import type { CheckoutPayment } from '../../flows/checkout-payment.ts';
import type { PaymentRow } from '../../store/payments-repo.ts';
import type { PageFrame } from './layout.ts';
import { pageFrame } from './page-frame.ts';
import type { PageResult } from './pages.ts';
import { isCrossSitePost } from './pages.ts';
import type { CheckoutLocale } from './locales.ts';
import { NEXT_STEP_PROBLEMS, renderNextStepPage, type NextStepFieldError } from './next-step-page.ts';
import { renderOtpPage } from './otp-page.ts';
import { stepNoticeOf, type StepNotice } from './step-texts.ts';
import { isJsonObject, isOneOf } from '../../../platform/lib/type-guards.ts';

// The hosted pages of a step an adapter asks for (issue 10): the secure code page and the next step form. Each
// form posts to us and is answered 303 (post/redirect/get): to the step page again with a notice while the step
// stands, else to the payment's page, which shows the provider's redirect page, the wait or the end.

export interface StepRouteHelpers {
  load(token: string): Promise<CheckoutPayment>;
  localeOf(request: { query: { locale?: string | undefined }; headers: { 'accept-language'?: string | undefined } }, payment: CheckoutPayment): CheckoutLocale;
  send(reply: FastifyReply, page: PageResult, statusCode?: number): FastifyReply;
  withFormCsp(page: PageResult, payment: CheckoutPayment): PageResult;
  amountText(payment: PaymentRow, locale: CheckoutLocale): string;
  formPostLimit: onRequestAsyncHookHandler;
}

const TokenParams = Type.Object({ token: Type.String({ pattern: '^[0-9a-f]{32}$' }) });
const StepQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 64 })), notice: Type.Optional(Type.String({ maxLength: 32 })) });

// The page of the step a pending payment waits on, or null: none, or none Payrail still takes answers to (then the
// customer waits for the provider's final status like any pending payment).
export function stepPageOf(
  payment: PaymentRow,
  locale: CheckoutLocale,
  amountText: string,
  urls: { code: string; resend: string; step: string },
  notice: StepNotice | null = null,
  frame: PageFrame = {},
): PageResult | null {
  const pending = currentPendingStep(payment);
  if (pending === null) return null;
  const common = { locale, product: payment.product, amountText, notice, ...frame };
  if (pending.step.kind === 'next_step') {
    if (nextStepRefusal(pending) !== null) return null;
    return renderNextStepPage({ ...common, request: pending.step.nextStep, actionUrl: urls.step });
  }
  if (secureCodeRefusal(pending) !== null) return null;
  const { secureCode } = pending.step;
  const ownLeft = SECURE_CODE_ATTEMPTS_MAX - pending.codeAttempts;
  return renderOtpPage({
    ...common,
    request: secureCode,
    attemptsLeft: secureCode.attemptsLeft === null ? ownLeft : Math.min(ownLeft, secureCode.attemptsLeft),
    resendWaitS: resendWaitS(pending, new Date()),
    codeUrl: urls.code,
    resendUrl: urls.resend,
  });
}

export function stepUrls(token: string, locale: CheckoutLocale) {
  return {
    page: `/checkout/${token}/step?locale=${locale}`,
    code: `/checkout/${token}/secure_code?locale=${locale}`,
    resend: `/checkout/${token}/resend_otp?locale=${locale}`,
    step: `/checkout/${token}/next_step?locale=${locale}`,
    checkout: `/checkout/${token}?locale=${locale}`,
  };
}

// Refusals the page explains instead of failing: the step moved on (another tab, the status checker) or a limit.
const NOTICE_OF_REFUSAL: Readonly<Record<string, StepNotice | null>> = {
  invalid_field: 'code_invalid',
  otp_resend_too_soon: 'resend_too_soon',
  otp_resend_limit: 'resend_limit',
  otp_resend_not_allowed: 'resend_not_allowed',
  invalid_state: null,
  secure_code_attempts_exhausted: null,
  next_step_submissions_exhausted: null,
  adapter_unavailable: 'provider_unreachable',
};

export async function registerStepRoutes(app: FastifyInstance, deps: ProcessingDeps, helpers: StepRouteHelpers): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const schema = { hide: true, params: TokenParams, querystring: StepQuery };

  routes.get('/checkout/:token/step', { schema }, async (request, reply) => {
    const payment = await helpers.load(request.params.token);
    const locale = helpers.localeOf(request, payment);
    const urls = stepUrls(payment.token, locale);
    const page = stepPageOf(payment, locale, helpers.amountText(payment, locale), urls, stepNoticeOf(request.query.notice), pageFrame(payment));
    return page === null ? reply.redirect(urls.checkout, 303) : helpers.send(reply, helpers.withFormCsp(page, payment));
  });

  // Where a step answer leads: the step again with a notice, or the payment's page (the provider's redirect page
  // when it asked for one, the wait, or the end).
  const afterAnswer = (reply: FastifyReply, result: StepOutcome, locale: CheckoutLocale, rejectedNotice: StepNotice) => {
    const urls = stepUrls(result.payment.token, locale);
    if (currentPendingStep(result.payment) === null) return reply.redirect(urls.checkout, 303);
    const notice: StepNotice = result.answered ? rejectedNotice : 'provider_unreachable';
    return reply.redirect(`${urls.page}&notice=${notice}`, 303);
  };
  const refused = (reply: FastifyReply, token: string, locale: CheckoutLocale, error: unknown) => {
    if (!(error instanceof ApiError) || !Object.hasOwn(NOTICE_OF_REFUSAL, error.code)) throw error;
    const notice = NOTICE_OF_REFUSAL[error.code];
    const urls = stepUrls(token, locale);
    return reply.redirect(notice ? `${urls.page}&notice=${notice}` : urls.page, 303);
  };
  // A form another site posted (Fetch Metadata) is not taken: the customer lands on the step page instead.
  const crossSite = (headers: Record<string, string | string[] | undefined>) => isCrossSitePost(headers['sec-fetch-site']);

  routes.post('/checkout/:token/secure_code', { schema, onRequest: helpers.formPostLimit }, async (request, reply) => {
    const payment = await helpers.load(request.params.token);
    const locale = helpers.localeOf(request, payment);
    if (crossSite(request.headers)) return reply.redirect(stepUrls(payment.token, locale).page, 303);
    const code = isJsonObject(request.body) ? request.body['code'] : undefined;
    try {
      const result = await submitSecureCode(deps, { payment }, typeof code === 'string' ? code : '');
      return afterAnswer(reply, result, locale, 'code_rejected');
    } catch (error) {
      return refused(reply, payment.token, locale, error);
    }
  });

  routes.post('/checkout/:token/resend_otp', { schema, onRequest: helpers.formPostLimit }, async (request, reply) => {
    const payment = await helpers.load(request.params.token);
    const locale = helpers.localeOf(request, payment);
    if (crossSite(request.headers)) return reply.redirect(stepUrls(payment.token, locale).page, 303);
    try {
      const result = await resendSecureCode(deps, { payment });
      return afterAnswer(reply, result, locale, 'code_resent');
    } catch (error) {
      return refused(reply, payment.token, locale, error);
    }
  });

  routes.post('/checkout/:token/next_step', { schema, onRequest: helpers.formPostLimit }, async (request, reply) => {
    const payment = await helpers.load(request.params.token);
    const locale = helpers.localeOf(request, payment);
    if (crossSite(request.headers)) return reply.redirect(stepUrls(payment.token, locale).page, 303);
    const form = isJsonObject(request.body) ? request.body : {}; // @fastify/formbody: field name → value
    try {
      const result = await submitNextStep(deps, { payment }, form);
      return afterAnswer(reply, result, locale, 'step_rejected');
    } catch (error) {
      if (!(error instanceof ApiError && error.statusCode === 422)) return refused(reply, payment.token, locale, error);
      // The customer's own typing: the form again, with what was typed and why each field was refused.
      const pending = currentPendingStep(payment);
      if (pending === null || pending.step.kind !== 'next_step') return reply.redirect(stepUrls(payment.token, locale).page, 303);
      const problemOf = Object.fromEntries(Object.entries(STEP_FIELD_ERROR_CODES).map(([problem, code]) => [code, problem]));
      const errors: NextStepFieldError[] = error.items.map((item) => {
        const problem = problemOf[item.code];
        return { field: (item.field ?? '').replace(/^fields\./, ''), problem: isOneOf(NEXT_STEP_PROBLEMS, problem) ? problem : 'invalid' };
      });
      const values = Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      const page = renderNextStepPage({
        locale,
        ...pageFrame(payment),
        product: payment.product,
        amountText: helpers.amountText(payment, locale),
        request: pending.step.nextStep,
        notice: null,
        actionUrl: stepUrls(payment.token, locale).step,
        values,
        errors,
      });
      return helpers.send(reply, helpers.withFormCsp(page, payment), 422);
    }
  });
}
