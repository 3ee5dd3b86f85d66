import { itemsOfPages } from './paging.ts';
import { call, encodePath, keyOf, type TransportSettings } from './transport.ts';
import type { DisputeCreateParams, DisputeEnvelope, DisputeListFilters, DisputeListItem, DisputeListPage, RequestOptions } from './types.ts';

const DOCUMENTS_MAX = 10; // Payrail's limit per dispute (more answers 422 too_many_documents)

function formOf(params: DisputeCreateParams): FormData {
  const form = new FormData();
  form.append('token', params.token);
  form.append('description', params.description);
  form.append('amount', String(params.amount));
  for (const document of params.documents ?? []) {
    const blob = document.content instanceof Blob ? document.content : new Blob([document.content], { type: document.mediaType ?? 'application/octet-stream' });
    form.append('document[]', blob, document.fileName);
  }
  return form;
}

// /api/v1/disputes: open one with evidence files (multipart/form-data), read one, list them, download a document.
export class Disputes {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  create(params: DisputeCreateParams, options: RequestOptions = {}): Promise<DisputeEnvelope> {
    if ((params.documents?.length ?? 0) > DOCUMENTS_MAX) throw new RangeError(`a dispute takes at most ${DOCUMENTS_MAX} documents`);
    return call(this.#settings, { method: 'POST', path: '/api/v1/disputes', form: () => formOf(params), ...keyOf(options) });
  }

  retrieve(disputeToken: string): Promise<DisputeEnvelope> {
    return call(this.#settings, { method: 'GET', path: encodePath('/api/v1/disputes/{token}', { token: disputeToken }) });
  }

  listPage(filters: DisputeListFilters & { cursor?: string } = {}): Promise<DisputeListPage> {
    return call(this.#settings, { method: 'GET', path: '/api/v1/disputes', query: filters });
  }

  list(filters: DisputeListFilters = {}): AsyncGenerator<DisputeListItem, void, undefined> {
    return itemsOfPages(
      (cursor) => this.listPage(cursor === undefined ? filters : { ...filters, cursor }),
      (page) => page.disputes,
    );
  }

  // The document as uploaded (PDF, PNG or JPEG).
  downloadDocument(disputeToken: string, documentId: number): Promise<Blob> {
    return call(this.#settings, {
      method: 'GET',
      path: encodePath('/api/v1/disputes/{token}/documents/{id}', { token: disputeToken, id: documentId }),
      binary: true,
    });
  }
}
