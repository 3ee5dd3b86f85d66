import { itemsOfPages } from './paging.ts';
import { call, encodePath, keyOf, type TransportSettings } from './transport.ts';
import type {
  EventEnvelope,
  EventListFilters,
  EventListItem,
  EventListPage,
  EventResent,
  RequestOptions,
  TestClockAdvanceParams,
  TestClockCreateParams,
  TestClockEnvelope,
  TestClockList,
} from './types.ts';

// /api/v1/events: the notification events of the key's environment, what each delivered, and delivering one again.
export class Events {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  listPage(filters: EventListFilters & { cursor?: string } = {}): Promise<EventListPage> {
    return call(this.#settings, { method: 'GET', path: '/api/v1/events', query: filters });
  }

  // Every event matching the filters, newest first, page after page.
  list(filters: EventListFilters = {}): AsyncGenerator<EventListItem, void, undefined> {
    return itemsOfPages(
      (cursor) => this.listPage(cursor === undefined ? filters : { ...filters, cursor }),
      (page) => page.events,
    );
  }

  // The event with the exact body delivered (payload) and its delivery attempts.
  retrieve(eventId: string): Promise<EventEnvelope> {
    return call(this.#settings, { method: 'GET', path: encodePath('/api/v1/events/{id}', { id: eventId }) });
  }

  // Delivers the event again: the same id, sequence and body (HTTP 202: queued).
  resend(eventId: string, options: RequestOptions = {}): Promise<EventResent> {
    return call(this.#settings, { method: 'POST', path: encodePath('/api/v1/events/{id}/resend', { id: eventId }), ...keyOf(options) });
  }
}

// /api/v1/test-clocks (sandbox keys only): a clock that moves only when advanced; payments created with
// `testClock: <id>` expire, are voided and checked by its time.
export class TestClocks {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  create(params: TestClockCreateParams = {}, options: RequestOptions = {}): Promise<TestClockEnvelope> {
    return call(this.#settings, { method: 'POST', path: '/api/v1/test-clocks', json: params, ...keyOf(options) });
  }

  retrieve(clockId: string): Promise<TestClockEnvelope> {
    return call(this.#settings, { method: 'GET', path: encodePath('/api/v1/test-clocks/{id}', { id: clockId }) });
  }

  list(): Promise<TestClockList> {
    return call(this.#settings, { method: 'GET', path: '/api/v1/test-clocks' });
  }

  // Exactly one of `to` (an ISO 8601 time after the clock's now) and `seconds`.
  advance(clockId: string, params: TestClockAdvanceParams, options: RequestOptions = {}): Promise<TestClockEnvelope> {
    return call(this.#settings, { method: 'POST', path: encodePath('/api/v1/test-clocks/{id}/advance', { id: clockId }), json: params, ...keyOf(options) });
  }
}
