// Server-Sent Events as `payrail listen` reads them: messages split on a blank line, fields id, event and data
// (several data lines joined by a newline), comments (": …") and retry ignored.
export interface SseMessage {
  id: string | null;
  event: string | null;
  data: string;
}

const BUFFERED_CHARS_MAX = 4 * 1024 * 1024; // one message larger than this is not an event of ours

export function sseReader(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffered = '';
  return (chunk) => {
    buffered += chunk.replaceAll('\r\n', '\n');
    if (buffered.length > BUFFERED_CHARS_MAX) throw new Error(`an event stream message exceeded ${BUFFERED_CHARS_MAX} characters`);
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const message = parseBlock(block);
      if (message !== null) onMessage(message);
      end = buffered.indexOf('\n\n');
    }
  };
}

function parseBlock(block: string): SseMessage | null {
  let id: string | null = null;
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { id, event, data: data.join('\n') };
}
