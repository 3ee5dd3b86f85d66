// The hosted checkout's pages: pure functions from what the route knows to { html, csp }.
export type { PageResult } from './layout.ts';
export {
  CARD_FIELDS,
  cardFieldMessage,
  isCardField,
  renderPaymentPage,
  type CardField,
  type PaymentPageFieldError,
  type PaymentPageInput,
} from './payment-page.ts';
export { REDIRECT_FRAME_NAME, renderRedirectPage, type RedirectPageInput } from './redirect-page.ts';
export { renderResultPage, renderWaitingPage, type ResultPageInput, type WaitingPageInput } from './status-pages.ts';
