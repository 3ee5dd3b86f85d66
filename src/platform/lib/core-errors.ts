import { ApiError, type ErrorItem } from './errors.ts';

// Core banking failures (spec 7.2): `{ success: false, status, errors: [{ code, kind, expiration, session, … }] }`
// with the HTTP status equal to `status`. `kind` names what failed (session, app_token, validation, …);
// `expiration` and `session` describe the session the failure is about when there is one.
export interface CoreErrorItem extends ErrorItem {
  kind?: string | null;
  expiration?: string | null; // ISO 8601
  session?: string | null;
}

export interface CoreErrorEnvelope {
  success: false;
  status: number;
  errors: Required<Pick<CoreErrorItem, 'code' | 'kind' | 'expiration' | 'session' | 'message'>>[] & CoreErrorItem[];
}

export class CoreApiError extends ApiError {
  readonly coreItems: readonly CoreErrorItem[];

  constructor(code: string, statusCode: number, message: string, items?: readonly CoreErrorItem[]) {
    super(code, statusCode, message, items);
    this.name = 'CoreApiError';
    this.coreItems = items ?? [{ code, message }];
  }
}

export function coreErrorEnvelope(statusCode: number, items: readonly CoreErrorItem[]): CoreErrorEnvelope {
  return {
    success: false,
    status: statusCode,
    errors: items.map((item) => ({ ...item, kind: item.kind ?? null, expiration: item.expiration ?? null, session: item.session ?? null })),
  };
}
