import type { RedirectRequest } from '../../contract/adapter-contract.ts';
import { checkoutCsp, CspSourceError, validateOrigin } from './csp.ts';
import { escapeAttribute, html, raw, type SafeHtml } from '../../../platform/lib/html.ts';
import { renderDocument, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale, type CheckoutText } from './locales.ts';
import { redirectHtmlNeeds } from './redirect-html.ts';
import { renderWaitingBlock } from './status-pages.ts';

export interface RedirectPageInput {
  locale: CheckoutLocale;
  redirect: RedirectRequest;
  statusUrl: string; // polled while the customer stays on this page (post_iframes, get_with_processing, redirect_html)
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
}

const REDIRECT_FRAME_NAME = 'payrail-frame';
// allow-same-origin is left out on purpose: the srcdoc document gets an opaque origin and cannot
// reach this page, its cookies or its storage.
const REDIRECT_HTML_SANDBOX = 'allow-forms allow-scripts allow-top-navigation';

interface RedirectTarget {
  href: string;
  origin: string | undefined; // undefined: a path on our own origin, covered by 'self'
}

// An adapter's url is untrusted: only absolute http(s) URLs and paths on our own origin pass;
// javascript:, data:, and protocol-relative URLs are refused (CspSourceError, like an origin the CSP cannot name).
function redirectTarget(url: string): RedirectTarget {
  if (/^\/(?![/\\])/.test(url)) return { href: url, origin: undefined };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CspSourceError('redirect url must be an absolute http(s) URL or a path');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new CspSourceError(`redirect url scheme ${parsed.protocol} is not allowed`);
  }
  return { href: parsed.href, origin: validateOrigin(parsed.origin) };
}

// Strings go as they are; objects and arrays as JSON; null as an empty value; undefined is left out.
function formParamValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

// spec 2.9 does not say where redirect_html carries its document: params.html when it is a
// string, otherwise url.
function redirectHtmlDocument(redirect: RedirectRequest): string {
  const fromParams = redirect.params?.['html'];
  return typeof fromParams === 'string' ? fromParams : redirect.url;
}

function renderHiddenInputs(params: Record<string, unknown> | undefined): SafeHtml {
  const inputs = Object.entries(params ?? {}).flatMap(([name, value]) => {
    const formValue = formParamValue(value);
    return formValue === undefined ? [] : [html`<input type="hidden" name="${name}" value="${formValue}">`];
  });
  return html`${inputs}`;
}

function renderPostForm(text: CheckoutText, redirect: RedirectRequest, target: RedirectTarget, frameTarget: boolean): SafeHtml {
  return html`<form id="redirect-form" class="redirect-form" method="post" action="${target.href}"${frameTarget ? html` target="${REDIRECT_FRAME_NAME}"` : ''} data-autosubmit>
${renderHiddenInputs(redirect.params)}
<button id="continue" class="button button-primary" type="submit">${text.continueButton}</button>
</form>`;
}

function intro(title: string, message: string): SafeHtml {
  return html`<h1>${title}</h1>
<p class="lead">${message}</p>`;
}

function renderFrame(attributes: SafeHtml, title: string): SafeHtml {
  return html`<iframe id="${REDIRECT_FRAME_NAME}" name="${REDIRECT_FRAME_NAME}" class="redirect-frame" title="${title}" ${attributes}></iframe>`;
}

function origins(origin: string | undefined): string[] {
  return origin === undefined ? [] : [origin];
}

function renderByType(input: RedirectPageInput, text: CheckoutText): { main: SafeHtml; csp: string } {
  const { redirect, locale, statusUrl } = input;
  switch (redirect.type) {
    case 'get': {
      const target = redirectTarget(redirect.url);
      return {
        main: html`${intro(text.redirectTitle, text.redirectMessage)}
<span class="spinner" aria-hidden="true"></span>
<a id="continue" class="button button-primary" href="${target.href}" data-autofollow>${text.continueButton}</a>`,
        csp: checkoutCsp(),
      };
    }
    case 'post': {
      const target = redirectTarget(redirect.url);
      return {
        main: html`${intro(text.redirectTitle, text.redirectMessage)}
<span class="spinner" aria-hidden="true"></span>
${renderPostForm(text, redirect, target, false)}`,
        csp: checkoutCsp({ formActionOrigins: origins(target.origin) }),
      };
    }
    case 'post_iframes': {
      const target = redirectTarget(redirect.url);
      return {
        main: html`${intro(text.threeDSecureTitle, text.threeDSecureNote)}
${renderPostForm(text, redirect, target, true)}
${renderFrame(html``, text.frameTitle)}
${renderWaitingBlock(locale, statusUrl, text.processingMessage)}`,
        csp: checkoutCsp({ formActionOrigins: origins(target.origin), frameOrigins: origins(target.origin) }),
      };
    }
    // The customer finishes at the url in a new tab (a bank page or app); this tab waits for the outcome.
    case 'get_with_processing': {
      const target = redirectTarget(redirect.url);
      return {
        main: html`${intro(text.processingTitle, text.redirectMessage)}
<a id="continue" class="button button-primary" href="${target.href}" target="_blank" rel="noopener">${text.continueButton}</a>
${renderWaitingBlock(locale, statusUrl, text.processingMessage)}`,
        csp: checkoutCsp(),
      };
    }
    // The adapter's HTML runs in a sandboxed srcdoc frame.
    case 'redirect_html': {
      const document = redirectHtmlDocument(redirect);
      const needs = redirectHtmlNeeds(document);
      const frame = renderFrame(raw(`sandbox="${REDIRECT_HTML_SANDBOX}" srcdoc="${escapeAttribute(document)}"`), text.frameTitle);
      return {
        main: html`${intro(text.threeDSecureTitle, text.threeDSecureNote)}
${frame}
${renderWaitingBlock(locale, statusUrl, text.processingMessage)}`,
        csp: checkoutCsp({
          scriptHashes: needs.scriptHashes,
          formActionOrigins: needs.formOrigins,
          frameOrigins: needs.formOrigins,
        }),
      };
    }
  }
}

export function renderRedirectPage(input: RedirectPageInput): PageResult {
  const text = checkoutText(input.locale);
  const { main, csp } = renderByType(input, text);
  const body = html`<section class="status-panel redirect" data-redirect-type="${input.redirect.type}">
${main}
</section>`;
  return { html: renderDocument({ locale: input.locale, title: text.redirectTitle, main: body, merchant: input.merchant, testMode: input.testMode }), csp };
}
