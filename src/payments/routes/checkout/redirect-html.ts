import { createHash } from 'node:crypto';

// What a redirect_html document needs from the CSP it inherits (see csp.ts): the hashes of its
// inline scripts and the origins its forms post to. Anything it does beyond a self-posting form
// (event-handler attributes, external scripts, script navigation elsewhere) stays blocked.

export interface RedirectHtmlNeeds {
  scriptHashes: string[];
  formOrigins: string[];
}

// The HTML tokenizer ends script data at the first "</script"; a lazy match does the same.
const INLINE_SCRIPT_PATTERN = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SCRIPT_SRC_PATTERN = /\ssrc\s*=/i;
const FORM_TAG_PATTERN = /<form\b[^>]*>/gi;
const ACTION_PATTERN = /\saction\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

// A browser hashes the script text after input preprocessing, which turns CR LF and CR into LF.
function scriptHash(scriptText: string): string {
  const normalized = scriptText.replace(/\r\n?/g, '\n');
  return `sha256-${createHash('sha256').update(normalized, 'utf8').digest('base64')}`;
}

function absoluteHttpOrigin(url: string): string | undefined {
  const decoded = url.trim().replace(/&amp;/gi, '&');
  if (!/^https?:\/\//i.test(decoded)) return undefined; // relative actions post to our own origin
  try {
    return new URL(decoded).origin;
  } catch {
    return undefined;
  }
}

export function redirectHtmlNeeds(document: string): RedirectHtmlNeeds {
  const scriptHashes = new Set<string>();
  for (const match of document.matchAll(INLINE_SCRIPT_PATTERN)) {
    const [, attributes = '', scriptText = ''] = match;
    if (!SCRIPT_SRC_PATTERN.test(attributes) && scriptText.trim() !== '') scriptHashes.add(scriptHash(scriptText));
  }
  const formOrigins = new Set<string>();
  for (const [formTag] of document.matchAll(FORM_TAG_PATTERN)) {
    const action = formTag.match(ACTION_PATTERN);
    const origin = absoluteHttpOrigin(action?.[1] ?? action?.[2] ?? action?.[3] ?? '');
    if (origin !== undefined) formOrigins.add(origin);
  }
  return { scriptHashes: [...scriptHashes], formOrigins: [...formOrigins] };
}
