import { notificationBody, type NotificationSnapshot } from './notification-body.ts';
import { modernSignatureHeader } from './notification-signature.ts';

// The HTTP request that delivers one event to the merchant: the body text and its headers, signed with the merchant's
// key at unixSeconds. The notifier sends it; the live stream (GET /api/v1/events/stream) hands the same to
// `payrail listen`, so a forwarded event verifies like a delivered one.
export interface EventRequest {
  headers: Record<string, string>;
  bodyText: string;
}

export function eventRequest(
  event: { eventId: string; snapshot: NotificationSnapshot; sequence: number | null },
  merchantKey: string,
  unixSeconds: number,
): EventRequest {
  const bodyText = JSON.stringify(notificationBody(event.snapshot, event.sequence, merchantKey));
  return {
    bodyText,
    headers: {
      'content-type': 'application/json',
      'x-payrail-event-id': event.eventId,
      ...(event.sequence === null ? {} : { 'x-payrail-event-sequence': String(event.sequence) }),
      'x-payrail-signature': modernSignatureHeader(bodyText, merchantKey, unixSeconds),
    },
  };
}
