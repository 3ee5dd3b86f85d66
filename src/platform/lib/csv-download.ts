import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

const FILE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,120}$/;

// A CSV answer streamed line by line as its source yields them (exports, reconciliation reports): nothing holds the
// whole file. Whatever the source checks before its first line should be checked before this is called, so a refusal
// is an error envelope and not a broken download.
export function sendCsvDownload(reply: FastifyReply, fileName: string, lines: AsyncIterable<string>): FastifyReply {
  if (!FILE_NAME_PATTERN.test(fileName)) throw new Error(`CSV file name ${JSON.stringify(fileName)} is not a plain name`);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(lines));
}
