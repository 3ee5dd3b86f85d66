import { maskCardData, type SensitiveCardData } from '../../platform/lib/redact.ts';
import type { AdapterOutcome } from './adapter-outcome.ts';

// What a provider's answer reports about a payment or payout beside its status: its transaction id and its details,
// card data masked. A column the answer leaves out keeps its value.
export interface ReportedDetails {
  gatewayToken?: string;
  gatewayDetails?: Record<string, unknown>;
  providerResponseData?: Record<string, unknown>;
}

export function reportedDetails(outcome: AdapterOutcome, sensitive: SensitiveCardData | null | undefined): ReportedDetails {
  const details: ReportedDetails = {};
  if (outcome.gatewayToken) details.gatewayToken = outcome.gatewayToken;
  if (outcome.gatewayDetails) details.gatewayDetails = maskCardData(outcome.gatewayDetails, sensitive);
  if (outcome.providerResponseData) details.providerResponseData = maskCardData(outcome.providerResponseData, sensitive);
  return details;
}
