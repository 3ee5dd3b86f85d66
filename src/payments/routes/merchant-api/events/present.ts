import type { MerchantEvent, MerchantEventDetail } from '../../../flows/events.ts';

export function presentEvent(event: MerchantEvent) {
  const { delivery } = event;
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    paymentToken: event.paymentToken,
    sequence: event.sequence,
    delivery: { ...delivery, nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null },
  };
}

export function presentEventDetail(event: MerchantEventDetail) {
  return {
    ...presentEvent(event),
    payload: event.payload,
    attempts: event.attemptList.map((attempt) => ({
      number: attempt.attemptNumber,
      at: attempt.createdAt.toISOString(),
      url: attempt.url,
      responseStatus: attempt.responseStatus,
      error: attempt.error,
      durationMs: attempt.durationMs,
    })),
  };
}
