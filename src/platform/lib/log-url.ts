import { CARD_DATA_REMOVED, maskCardDataInText } from '@payrail/adapter-kit';

// A request URL as the request log may print it: card numbers masked, the bearer token of a hosted card page
// (/cards/<token>) removed, and the values of query parameters that carry secrets (merchant_private_key of the
// core banking card endpoints, any …key, …token, …secret, …password, and the dashboard's _csrf) removed.
const CARD_PAGE_PATH = /^\/cards\/[^/?#]+/;
const SECRET_PARAMETER = /(key|token|secret|password|csrf)$/;

export function redactUrlForLog<Url extends string | undefined>(url: Url): Url;
export function redactUrlForLog(url: string | undefined): string | undefined {
  if (typeof url !== 'string') return url; // a log call that passes its own req object may have none
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(CARD_PAGE_PATH, `/cards/${CARD_DATA_REMOVED}`);
  if (queryAt === -1) return maskCardDataInText(path);
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equalsAt = pair.indexOf('=');
      const name = equalsAt === -1 ? pair : pair.slice(0, equalsAt);
      return equalsAt !== -1 &&
        SECRET_PARAMETER.test(
          safeDecode(name)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, ''),
        )
        ? `${name}=${CARD_DATA_REMOVED}`
        : pair;
    })
    .join('&');
  return maskCardDataInText(`${path}?${query}`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
