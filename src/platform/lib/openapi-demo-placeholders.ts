// What the demo seed of an embedded `npm start` creates (src/platform/runtime/demo-seed.ts), by the placeholder the examples
// carry: the document served by that server shows the seed's own tokens in their place (openapi-demo-values.ts).
export const DEMO_PLACEHOLDERS = {
  approvedPaymentToken: '00679dafc2fcf5705104180e68120961',
  confirmPaymentToken: 'a0d3c6f1e2b94d5c8e7f60a1b2c3d4e5',
  declinePaymentToken: 'b1e4d7a2f3ca5e6d9f8071b2c3d4e5f6',
  cancelPaymentToken: 'c2f5e8b3a4db6f7e0a9182c3d4e5f607',
  secureCodePaymentToken: 'd3a6f9c4b5ec7a8f1b0293d4e5f60718',
  resendOtpPaymentToken: 'e4b7a0d5c6fd8b9a2c13a4e5f6071829',
  nextStepPaymentToken: 'f5c8b1e6d7ae9cab3d24b5f60718293a',
  refundToken: '40724f7a312666d2c80c93ada4eead63',
  disputeToken: 'bf417d955652df2cd5d5eff1c5bcd939',
} as const;

// The core banking person the demo seed creates: the sign-in examples use these credentials as they stand.
export const DEMO_CORE_USER = { email: 'ada@example.com', phone: '+447700900123', password: 'correct horse battery staple' } as const;
// The second person of the seed, whom the money-charge examples ask for money.
export const DEMO_CORE_PAYER = { email: 'alan@example.com', phone: '+447700900789', password: 'another long demo phrase' } as const;
export type DemoPlaceholderName = keyof typeof DEMO_PLACEHOLDERS;
const isPlaceholderName = (name: string): name is DemoPlaceholderName => Object.hasOwn(DEMO_PLACEHOLDERS, name);
export const DEMO_PLACEHOLDER_NAMES: readonly DemoPlaceholderName[] = Object.keys(DEMO_PLACEHOLDERS).filter(isPlaceholderName);
