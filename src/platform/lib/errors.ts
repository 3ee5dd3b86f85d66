// Errors are values with codes (ARCHITECTURE principle 7): one shape for every client-facing failure.

export interface ErrorItem {
  code: string;
  message: string;
  field?: string;
}

export class ApiError extends Error {
  readonly code: string;
  readonly statusCode: number;
  readonly items: readonly ErrorItem[];

  constructor(code: string, statusCode: number, message: string, items?: readonly ErrorItem[]) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = statusCode;
    this.items = items ?? [{ code, message }];
  }
}

export interface ErrorEnvelope {
  success: false;
  result: 1;
  status: number;
  errors: ErrorItem[];
}

export function errorEnvelope(statusCode: number, items: readonly ErrorItem[]): ErrorEnvelope {
  return { success: false, result: 1, status: statusCode, errors: [...items] };
}
