import { objectAt, textAt } from './json-path.ts';
import { KNOWN_ERROR_CODES, USUAL_CODE_OF_STATUS, USUAL_CORE_CODE_OF_STATUS } from './openapi-error-codes.ts';

// Each error answer of the document says which codes it carries at its status and shows one as the service sends
// it. Many routes describe one failure envelope for all their statuses, with the statuses of the codes written in
// its text ("charge_not_pending (409); invalid_field (422)"): that text is split here per status, so a route keeps
// declaring its codes once.

type Json = Record<string, unknown>;

interface CodeStatuses {
  code: string;
  statuses: number[];
}

const TOKEN = /\(([^()]*)\)|;|[a-z][a-z0-9]*(?:_[a-z0-9]+)*/g;

function parseErrorCodes(text: string): CodeStatuses[] {
  const found: CodeStatuses[] = [];
  let pending: string[] = [];
  const flush = (statuses: number[]) => {
    for (const code of pending) found.push({ code, statuses: statuses.length > 0 ? statuses : knownStatusesOf(code) });
    pending = [];
  };
  for (const match of text.replace(/^machine-readable:\s*/, '').matchAll(TOKEN)) {
    const [token, note] = match;
    if (note !== undefined) {
      if (/^\d{3}\b/.test(note)) flush([...(note.split(':')[0] ?? '').matchAll(/\b(\d{3})\b/g)].map((status) => Number(status[1])));
    } else if (token === ';') {
      flush([]);
    } else if (token.includes('_') || KNOWN_ERROR_CODES[token] !== undefined) {
      pending.push(token);
    }
  }
  flush([]);
  return found;
}

function knownStatusesOf(code: string): number[] {
  const known = KNOWN_ERROR_CODES[code];
  return known === undefined ? [] : [known.status];
}

export function codesOfStatus(codesText: string | undefined, status: number, core: boolean, appToken: boolean): string[] {
  const codes = parseErrorCodes(codesText ?? '')
    .filter((entry) => entry.statuses.includes(status))
    .map((entry) => entry.code);
  const unique = [...new Set(codes)];
  if (unique.length > 0) return unique;
  if (core && status === 401 && appToken) return ['app_token_invalid'];
  const usual = (core ? USUAL_CORE_CODE_OF_STATUS[status] : undefined) ?? USUAL_CODE_OF_STATUS[status];
  return usual === undefined ? [] : [usual];
}

function coreKindOf(code: string): string | null {
  if (code.startsWith('session_') || code.startsWith('pre_session') || code.startsWith('confirmation_code')) return 'session';
  if (code.startsWith('app_token_')) return 'app_token';
  if (code.startsWith('profile_')) return 'profile';
  if (code === 'rate_limited' || code === 'too_many_sign_in_attempts') return 'rate_limit';
  if (code.endsWith('not_found')) return 'not_found';
  if (['invalid_field', 'unknown_field', 'missing_field', 'invalid_json'].includes(code)) return 'validation';
  return null;
}

const FIELD_OF_CODE: Readonly<Record<string, string>> = { invalid_field: 'amount', unknown_field: 'colour', missing_field: 'amount' };

function errorExample(status: number, code: string, core: boolean): Json {
  const message = KNOWN_ERROR_CODES[code]?.message ?? code.replaceAll('_', ' ');
  const field = FIELD_OF_CODE[code];
  const item: Json = core ? { code, kind: coreKindOf(code), expiration: null, session: null, message } : { code, message };
  if (field !== undefined) item['field'] = field;
  return core ? { success: false, status, errors: [item] } : { success: false, result: 1, status, errors: [item] };
}

function envelopeCodesText(schema: Json): string | undefined {
  const code = objectAt(schema, 'properties', 'errors', 'items', 'properties', 'code');
  return code === undefined ? undefined : (textAt(code, 'description') ?? '');
}

// One error response of an operation: its description names its codes, its JSON answer shows the first.
export function documentErrorResponse(response: Json, status: number, security: readonly Json[]): void {
  const media = objectAt(response, 'content', 'application/json');
  const schema = objectAt(media, 'schema');
  if (media === undefined || schema === undefined) return;
  const codesText = envelopeCodesText(schema);
  if (codesText === undefined) return;
  const core = objectAt(schema, 'properties')?.['result'] === undefined;
  const appToken = security.some((requirement) => 'appToken' in requirement);
  const codes = codesOfStatus(codesText, status, core, appToken);
  const first = codes[0];
  if (first === undefined) return;
  const meaning = String(response['description'] ?? '').replace(/\.?$/, '.');
  response['description'] = `${meaning} ${codes.length > 1 ? 'Codes' : 'Code'}: ${codes.map((code) => `\`${code}\``).join(', ')}.`;
  if (media['example'] === undefined && media['examples'] === undefined) media['example'] = errorExample(status, first, core);
}
