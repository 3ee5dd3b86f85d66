import { describe, expect, it } from 'vitest';
import { escapeAttribute, escapeHtml, html, raw, SafeHtml } from '../../../src/platform/lib/html.ts';

const INJECTIONS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' autofocus onfocus='alert(1)", '</textarea></title><svg onload=alert(1)>'];

describe('escapeHtml', () => {
  it.each([
    ['<script>', '&lt;script&gt;'],
    ['"double"', '&quot;double&quot;'],
    ["'single'", '&#39;single&#39;'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['&amp;', '&amp;amp;'],
    ['plain text 123', 'plain text 123'],
  ])('escapes %j as %j', (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
  });

  it.each(INJECTIONS)('leaves no markup character of %j', (injection) => {
    expect(escapeHtml(injection)).not.toMatch(/[<>"']/);
  });
});

describe('escapeAttribute', () => {
  it('also escapes the backtick, equals sign and whitespace, so the value cannot end an unquoted attribute', () => {
    expect(escapeAttribute('a b=`c`\n"d"')).toBe('a&#32;b&#61;&#96;c&#96;&#10;&quot;d&quot;');
  });

  it.each(INJECTIONS)('leaves no markup or whitespace character of %j', (injection) => {
    expect(escapeAttribute(injection)).not.toMatch(/[<>"'`=\s]/);
  });
});

describe('html template', () => {
  it('escapes string and number interpolations in text and attributes', () => {
    const name = '<b>"Bob" & \'Al\'</b>';
    const markup = html`<p title="${name}">${name} ${42}</p>`;
    expect(markup.html).toBe('<p title="&lt;b&gt;&quot;Bob&quot; &amp; &#39;Al&#39;&lt;/b&gt;">&lt;b&gt;&quot;Bob&quot; &amp; &#39;Al&#39;&lt;/b&gt; 42</p>');
  });

  it.each(INJECTIONS)('cannot be broken out of with %j', (injection) => {
    const markup = html`<div data-value="${injection}">${injection}</div>`.html;
    expect(markup).not.toContain('<script');
    expect(markup).not.toContain('<img');
    expect(markup).not.toContain('<svg');
    expect(markup.match(/"/g)).toHaveLength(2);
  });

  it('inserts SafeHtml and nested templates as they are', () => {
    const inner = html`<em>${'<x>'}</em>`;
    expect(html`<p>${inner}${raw('<br>')}</p>`.html).toBe('<p><em>&lt;x&gt;</em><br></p>');
  });

  it('joins arrays, escaping each item, and renders null, undefined and false as nothing', () => {
    const items = ['<a>', html`<li>b</li>`];
    expect(html`<ul>${items}${null}${undefined}${false}</ul>`.html).toBe('<ul>&lt;a&gt;<li>b</li></ul>');
  });

  it('does not trust an object that only looks like SafeHtml', () => {
    const forged = { html: '<script>alert(1)</script>' } as unknown as string;
    expect(html`${forged}`.html).toBe('[object Object]');
  });

  it('returns SafeHtml whose string form is the markup', () => {
    const markup = html`<p>${'a'}</p>`;
    expect(markup).toBeInstanceOf(SafeHtml);
    expect(String(markup)).toBe('<p>a</p>');
  });
});
