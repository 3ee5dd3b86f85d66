// The dashboard's words, in one catalogue per locale, so more locales can follow. English only for now: a page asks
// for a key; a missing key is a type error.
const en = {
  'app.name': 'Payrail',
  'app.dashboard': 'Dashboard',
  'nav.home': 'Home',
  'nav.payments': 'Payments',
  'nav.payouts': 'Payouts',
  'nav.refunds': 'Refunds',
  'nav.disputes': 'Disputes',
  'nav.balance': 'Balance',
  'nav.developers': 'Developers',
  'nav.settings': 'Settings',
  'nav.logout': 'Log out',
  'nav.skip': 'Skip to content',
  'mode.sandbox': 'Test mode',
  'mode.production': 'Live mode',
  'mode.sandboxBanner': 'Test mode: you are looking at sandbox data. Nothing here moves real money.',
  'mode.switchToLive': 'Switch to live data',
  'mode.switchToTest': 'Switch to test data',
  'review.pending': 'Your account is waiting for an operator’s review: live payments start once it is approved. Test mode works now.',
  'review.rejected': 'An operator has rejected your account: it gets no live key. The reason given:',
  'merchant.disabled': 'This merchant is disabled by an operator: its API keys are refused.',
  'empty.generic': 'Nothing here yet.',
  'error.title': 'Something went wrong',
  'error.notFound': 'This page does not exist, or is not yours to see.',
  'error.forbidden': 'Your role does not allow this.',
  'action.confirm': 'Confirm',
  'action.cancel': 'Cancel',
  'action.save': 'Save',
  'action.next': 'Next page',
  'action.first': 'First page',
  'action.filter': 'Filter',
  'action.export': 'Export CSV',
  'action.showTable': 'Show the numbers',
} as const;

export type TextKey = keyof typeof en;

export function t(key: TextKey): string {
  return en[key];
}
