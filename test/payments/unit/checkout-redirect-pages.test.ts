import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RedirectRequest } from '../../../src/payments/contract/adapter-contract.ts';
import { renderRedirectPage, renderResultPage, renderWaitingPage } from '../../../src/payments/routes/checkout/pages.ts';
import { declineText } from '../../../src/payments/routes/checkout/decline-texts.ts';
import { attribute, directiveSources, tagById, tagsByName, textById } from './checkout-markup.ts';

const STATUS_URL = '/checkout/tok_3f2a/status';
const ACS_URL = 'https://acs.bank.example:8443/3ds/challenge?session=a&b=c';
const ACS_ORIGIN = 'https://acs.bank.example:8443';

function render(redirect: RedirectRequest) {
  return renderRedirectPage({ locale: 'en', redirect, statusUrl: STATUS_URL });
}

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

describe('renderRedirectPage: get', () => {
  const page = render({ type: 'get', url: ACS_URL });

  it('renders #continue pointing at the url for checkout.js to follow at once and for no-JS users to click', () => {
    const link = tagById(page.html, 'continue');
    expect(link.startsWith('<a ')).toBe(true);
    expect(attribute(link, 'href')).toBe(ACS_URL);
    expect(attribute(link, 'data-autofollow')).toBe('');
    expect(page.html).not.toContain('http-equiv');
  });

  it('needs no extra CSP source: a top-level navigation is not a form post or a frame', () => {
    expect(directiveSources(page.csp, 'form-action')).toEqual(["'self'"]);
    expect(directiveSources(page.csp, 'frame-src')).toEqual(["'none'"]);
  });
});

describe('renderRedirectPage: post', () => {
  const params = {
    PaReq: 'eJzV"<x>&',
    TermUrl: 'https://pay.example/return',
    attempt: 2,
    challenge: true,
    empty: null,
    skipped: undefined,
    browser: { tz: -60, lang: 'en' },
  };
  const page = render({ type: 'post', url: ACS_URL, params });

  it('renders #redirect-form posting every param as a hidden input, for checkout.js to submit', () => {
    const form = tagById(page.html, 'redirect-form');
    expect(attribute(form, 'method')).toBe('post');
    expect(attribute(form, 'action')).toBe(ACS_URL);
    expect(attribute(form, 'data-autosubmit')).toBe('');
    expect(attribute(form, 'target')).toBeUndefined();
    const hidden = tagsByName(page.html, 'input').map((tag) => [attribute(tag, 'name'), attribute(tag, 'value')]);
    expect(hidden).toEqual([
      ['PaReq', 'eJzV"<x>&'],
      ['TermUrl', 'https://pay.example/return'],
      ['attempt', '2'],
      ['challenge', 'true'],
      ['empty', ''],
      ['browser', '{"tz":-60,"lang":"en"}'],
    ]);
    expect(page.html).not.toContain('<x>');
    expect(attribute(tagById(page.html, 'continue'), 'type')).toBe('submit');
  });

  it('allows a form post to the url origin and nothing else', () => {
    expect(directiveSources(page.csp, 'form-action')).toEqual(["'self'", ACS_ORIGIN]);
    expect(directiveSources(page.csp, 'frame-src')).toEqual(["'none'"]);
  });

  it('needs no extra source for a path on our own origin', () => {
    const own = render({ type: 'post', url: '/sandbox/3ds/tok_3f2a', params: {} });
    expect(attribute(tagById(own.html, 'redirect-form'), 'action')).toBe('/sandbox/3ds/tok_3f2a');
    expect(directiveSources(own.csp, 'form-action')).toEqual(["'self'"]);
  });
});

describe('renderRedirectPage: post_iframes', () => {
  const page = render({ type: 'post_iframes', url: ACS_URL, params: { creq: 'abc' } });

  it('posts the form into #payrail-frame and polls the status meanwhile', () => {
    expect(attribute(tagById(page.html, 'redirect-form'), 'target')).toBe('payrail-frame');
    const frame = tagById(page.html, 'payrail-frame');
    expect(attribute(frame, 'name')).toBe('payrail-frame');
    expect(attribute(frame, 'title')).not.toBe('');
    expect(attribute(tagById(page.html, 'waiting'), 'data-status-url')).toBe(STATUS_URL);
  });

  it('allows the form post and the frame for the url origin only', () => {
    expect(directiveSources(page.csp, 'form-action')).toEqual(["'self'", ACS_ORIGIN]);
    expect(directiveSources(page.csp, 'frame-src')).toEqual([ACS_ORIGIN]);
  });
});

describe('renderRedirectPage: get_with_processing', () => {
  it('opens the url in a new tab on a click and polls the status in this one', () => {
    const page = render({ type: 'get_with_processing', url: ACS_URL });
    const link = tagById(page.html, 'continue');
    expect(attribute(link, 'href')).toBe(ACS_URL);
    expect(attribute(link, 'target')).toBe('_blank');
    expect(attribute(link, 'rel')).toBe('noopener');
    expect(attribute(link, 'data-autofollow')).toBeUndefined();
    expect(attribute(tagById(page.html, 'waiting'), 'data-status-url')).toBe(STATUS_URL);
  });
});

describe('renderRedirectPage: redirect_html', () => {
  const script = "document.getElementById('f').submit();";
  const document = `<form id="f" method="post" action="https://ACS.bank.example/pareq"><input type="hidden" name="PaReq" value="a&amp;b"></form>\r\n<script>${script}</script>"><script>alert(1)</script>`;
  const page = render({ type: 'redirect_html', url: document });

  it('puts the HTML in a sandboxed srcdoc frame, escaped so nothing of it is markup of our page', () => {
    const frame = tagById(page.html, 'payrail-frame');
    expect(attribute(frame, 'sandbox')).toBe('allow-forms allow-scripts allow-top-navigation');
    expect(attribute(frame, 'srcdoc')).toBe(document);
    expect(tagsByName(page.html, 'script')).toHaveLength(1); // our checkout.js only
    expect(tagsByName(page.html, 'form')).toHaveLength(0);
  });

  it('allows exactly the inline script of the HTML and posting and framing its form origin', () => {
    expect(directiveSources(page.csp, 'script-src')).toEqual(["'self'", sha256Source(script), sha256Source('alert(1)')]);
    expect(directiveSources(page.csp, 'form-action')).toEqual(["'self'", 'https://acs.bank.example']);
    expect(directiveSources(page.csp, 'frame-src')).toEqual(['https://acs.bank.example']);
    expect(page.csp).not.toContain('unsafe');
  });

  it('hashes a script as the browser sees it, after CR LF became LF', () => {
    const crlf = render({ type: 'redirect_html', url: '<script>\r\nvar a = 1;\r\n</script>' });
    expect(directiveSources(crlf.csp, 'script-src')).toEqual(["'self'", sha256Source('\nvar a = 1;\n')]);
  });

  it('skips external scripts and relative form actions, which need nothing beyond self', () => {
    const page = render({ type: 'redirect_html', url: '<script src="https://cdn.example/x.js"></script><form action="/return"></form>' });
    expect(directiveSources(page.csp, 'script-src')).toEqual(["'self'"]);
    expect(directiveSources(page.csp, 'form-action')).toEqual(["'self'"]);
    expect(directiveSources(page.csp, 'frame-src')).toEqual(["'none'"]);
  });

  it('takes the HTML from params.html when the adapter puts it there', () => {
    const page = render({ type: 'redirect_html', url: 'https://ignored.example', params: { html: '<p>from params</p>' } });
    expect(attribute(tagById(page.html, 'payrail-frame'), 'srcdoc')).toBe('<p>from params</p>');
  });
});

describe('renderRedirectPage url checks', () => {
  it.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example/x', '/\\evil.example', 'ftp://files.example/x', 'not a url'])(
    'refuses %j for every navigating type',
    (url) => {
      for (const type of ['get', 'post', 'post_iframes', 'get_with_processing'] as const) {
        expect(() => render({ type, url })).toThrow(/redirect url/);
      }
    },
  );
});

describe('renderWaitingPage', () => {
  it('renders #waiting with the status url and the localized timeout message for checkout.js', () => {
    const page = renderWaitingPage({ locale: 'jp', statusUrl: STATUS_URL });
    const waiting = tagById(page.html, 'waiting');
    expect(attribute(waiting, 'data-status-url')).toBe(STATUS_URL);
    expect(attribute(waiting, 'data-timeout-message')).toContain('処理に時間がかかっています');
    expect(attribute(tagById(page.html, 'check-again'), 'hidden')).toBe('');
    expect(directiveSources(page.csp, 'connect-src')).toEqual(["'self'"]);
  });
});

describe('renderResultPage', () => {
  it.each([
    ['approved', 'Payment successful'],
    ['declined', 'Payment declined'],
    ['expired', 'Payment expired'],
    ['pending', 'Payment pending'],
    ['refunded', 'Payment refunded'],
  ] as const)('renders #result with data-status %s and its title', (status, title) => {
    const page = renderResultPage({ locale: 'en', status, product: 'Order #1001', amountText: '10.00 USD' });
    expect(attribute(tagById(page.html, 'result'), 'data-status')).toBe(status);
    expect(page.html).toContain(`<h1>${title}</h1>`);
    expect(textById(page.html, 'amount')).toBe('10.00 USD');
    // A decline always names its class (domain/decline-class.ts), even without a gateway reason; no other status does.
    expect(page.html.includes('id="result-reason"')).toBe(status === 'declined');
  });

  it("names the reason's class in the page's language, never the gateway's own text", () => {
    const page = renderResultPage({ locale: 'zh', status: 'declined', product: '<i>p</i>', amountText: '1 JPY', reason: '<script>x</script>' });
    expect(textById(page.html, 'result-reason')).toBe(declineText('zh').reason.other);
    expect(page.html).not.toContain('script>x');
    expect(page.html).not.toContain('<i>');
  });
});
