// Payrail's tab icon: a white "P" on the checkout's accent blue. One source for the checkout, which serves it
// as /checkout/assets/favicon.svg, and the sandbox 3-D Secure page, which stands apart and inlines it.
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#1d4ed8"/>
<path fill="#fff" fill-rule="evenodd" d="M10 7h7.5a6.5 6.5 0 0 1 0 13H14v5h-4zm4 4v5h3.5a2.5 2.5 0 0 0 0-5z"/>
</svg>
`;

// A data: URL needs no request and no origin: the page stays self-contained under img-src data:.
export function faviconDataUrl(): string {
  return `data:image/svg+xml;base64,${Buffer.from(FAVICON_SVG, 'utf8').toString('base64')}`;
}
