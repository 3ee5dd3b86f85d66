import { CHECKOUT_RESERVED_SEGMENTS } from './selector-urls.ts';

// A gateway's alias: unique per merchant and environment, and a path segment of the checkout (/checkout/<token>/<alias>),
// so none of the checkout pages' own segments.

export const GATEWAY_ALIAS_CHARS_MAX = 64;
export const GATEWAY_ALIAS_PATTERN = `^(?!(${CHECKOUT_RESERVED_SEGMENTS.join('|')})$)[a-z0-9][a-z0-9_-]*$`;
export const GATEWAY_ALIAS_RULE = `lower-case letters, digits, _ and -; not one of ${CHECKOUT_RESERVED_SEGMENTS.join(', ')}`;
const aliasPattern = new RegExp(GATEWAY_ALIAS_PATTERN);

// An alias as typed into a form (trimmed), or its problem.
export function readGatewayAlias(text: string): { alias: string } | { problem: string } {
  const alias = text.trim();
  if (alias === '') return { problem: 'is required' };
  if (alias.length > GATEWAY_ALIAS_CHARS_MAX) return { problem: `must be at most ${GATEWAY_ALIAS_CHARS_MAX} characters` };
  if (!aliasPattern.test(alias)) return { problem: `must be ${GATEWAY_ALIAS_RULE}` };
  return { alias };
}
