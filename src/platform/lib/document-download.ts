import type { ReadStream } from 'node:fs';
import type { FastifyReply } from 'fastify';
import { attachmentDisposition } from './document-store.ts';

// A stored document as every download answers it (merchant API, admin API, dashboard): an attachment with its type
// and length, never rendered (no sniffing, a sandboxing CSP), whatever a browser makes of the file.
const DOCUMENT_CSP = "default-src 'none'; sandbox";

export interface DocumentDownload {
  document: { mediaType: string; fileName: string };
  sizeBytes: number;
  stream: ReadStream;
}

export function sendDocument(reply: FastifyReply, download: DocumentDownload): FastifyReply {
  return reply
    .header('content-type', download.document.mediaType)
    .header('content-length', download.sizeBytes)
    .header('content-disposition', attachmentDisposition(download.document.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', DOCUMENT_CSP)
    .send(download.stream);
}
