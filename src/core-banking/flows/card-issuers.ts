import type { CardIssuer } from '../gateways/card-issuer.ts';
import { createSandboxCardIssuer, SANDBOX_CARD_ISSUER_NAME } from '../gateways/sandbox-card-issuer.ts';
import type { KeyEnvironment } from '../../platform/lib/merchant-key.ts';

// Which card issuer serves a merchant key's environment. Sandbox keys get the built-in sandbox issuer; production
// keys get none until a real issuer adapter (an implementation of CardIssuer) is configured here, so a production
// card request is refused with issuer_unavailable rather than issued by a simulator.
export function issuerForEnvironment(masterKey: Buffer, environment: KeyEnvironment): CardIssuer | null {
  return environment === 'sandbox' ? createSandboxCardIssuer(masterKey) : null;
}

// The issuer that made a stored card (bank_cards.issuer).
export function issuerNamed(masterKey: Buffer, name: string): CardIssuer | null {
  return name === SANDBOX_CARD_ISSUER_NAME ? createSandboxCardIssuer(masterKey) : null;
}
