// The hosted checkout's pages: pure functions from what the route knows to { html, csp }.
export type { PageResult } from './layout.ts';
export {
  cardFieldMessage,
  renderPaymentPage,
  type PaymentPageInput,
} from './payment-page.ts';
export { renderRedirectPage, type RedirectPageInput } from './redirect-page.ts';
export { renderResultPage, renderWaitingPage } from './status-pages.ts';
export { isCrossSitePost, renderWalletPage } from './wallet-page.ts';
