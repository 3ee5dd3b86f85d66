// Reading the rendered checkout HTML in tests without a DOM: our templates always double-quote
// attribute values, so a tag is `<name …>` and an attribute is ` name="value"` or a bare ` name`.

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
    return ENTITIES[body] ?? entity;
  });
}

// Every start tag, in document order.
export function startTags(html: string): string[] {
  return html.match(/<[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*(?:="[^"]*")?)*\s*\/?>/gi) ?? [];
}

export function tagById(html: string, id: string): string {
  const matches = startTags(html).filter((tag) => tag.includes(` id="${id}"`));
  if (matches.length !== 1) throw new Error(`expected one element #${id}, found ${matches.length}`);
  return matches[0] ?? '';
}

export function tagsByName(html: string, name: string): string[] {
  return startTags(html).filter((tag) => tag.toLowerCase().startsWith(`<${name} `) || tag.toLowerCase() === `<${name}>`);
}

// The decoded value, '' for a bare attribute, undefined when absent.
export function attribute(tag: string, name: string): string | undefined {
  const match = tag.match(new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s>/])`));
  if (match === null) return undefined;
  return decodeEntities(match[1] ?? '');
}

// The element's text content, tags stripped, for elements without nested elements of the same name.
export function textById(html: string, id: string): string {
  const tag = tagById(html, id);
  const name = tag.slice(1).split(/[\s>]/)[0] ?? '';
  const start = html.indexOf(tag) + tag.length;
  const end = html.indexOf(`</${name}>`, start);
  return decodeEntities(html.slice(start, end).replace(/<[^>]*>/g, '')).trim();
}

export function directiveSources(csp: string, name: string): string[] | undefined {
  for (const directive of csp.split(';')) {
    const [directiveName, ...sources] = directive.trim().split(/\s+/);
    if (directiveName === name) return sources;
  }
  return undefined;
}
