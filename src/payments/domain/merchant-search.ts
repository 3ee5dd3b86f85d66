import { ApiError } from '../../platform/lib/errors.ts';

// What an operator looking for a merchant knows of it: its id, or a part of its name or display name; and whether
// it waits for review. The list is newest first, a page at a time (keyset: the id of the page's last merchant).

const MERCHANT_REVIEW_STATUSES = ['pending_review', 'approved', 'rejected'] as const;
type MerchantReviewStatus = (typeof MERCHANT_REVIEW_STATUSES)[number];

export const MERCHANT_SEARCH_PAGE_SIZE = 50;
const SEARCH_TEXT_CHARS_MAX = 255; // a merchant's name is at most 255 characters

export interface MerchantSearch {
  text: string | null; // a part of the name or display name, compared without regard to case
  id: number | null; // the text was a merchant id (#12 or 12): that merchant too
  reviewStatus: MerchantReviewStatus | null;
  beforeId: number | null; // the cursor: merchants with a smaller id
}

export interface MerchantSearchText {
  q?: string;
  review?: string;
  cursor?: string;
}

// The search as typed into the form (blank: everything), or a 422 naming the field that cannot match.
export function readMerchantSearch(text: MerchantSearchText): MerchantSearch {
  const typed = text.q?.trim() ?? '';
  if ([...typed].length > SEARCH_TEXT_CHARS_MAX) throw invalid('q', `at most ${SEARCH_TEXT_CHARS_MAX} characters`);
  const idMatch = /^#?([0-9]{1,15})$/.exec(typed);
  const review = text.review?.trim() ?? '';
  const reviewStatus = MERCHANT_REVIEW_STATUSES.find((status) => status === review) ?? null;
  if (review !== '' && reviewStatus === null) throw invalid('review', `one of ${MERCHANT_REVIEW_STATUSES.join(', ')}`);
  const cursor = text.cursor?.trim() ?? '';
  const beforeId = cursor === '' ? null : Number(cursor);
  if (beforeId !== null && !(Number.isSafeInteger(beforeId) && beforeId > 0)) throw invalid('cursor', 'the cursor of the page before');
  return { text: typed === '' ? null : typed, id: idMatch ? Number(idMatch[1]) : null, reviewStatus, beforeId };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('invalid_field', 422, `the search cannot match any merchant: ${field} ${message}`, [{ code: 'invalid_field', field, message }]);
}
