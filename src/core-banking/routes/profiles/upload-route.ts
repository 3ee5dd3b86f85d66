import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { uploadProfileFile, type ProfileFileDeps } from '../../flows/profile-files.ts';
import { CoreApiError } from '../../../platform/lib/core-errors.ts';
import { actingProfile } from '../auth.ts';
import { presentProfileFile } from './present.ts';
import {
  ActingForbidden,
  CoreErrorEnvelope,
  SegregatedQuery,
  UploadFileForm,
  UploadFileResponse,
  UploadNotMultipart,
  UploadRefused,
  UploadTooLarge,
  UploadUnreadable,
  validateUploadForm,
  validateUploadQuery,
  type UploadFileValue,
} from './schemas.ts';
import { PROFILE_FILE_MULTIPART_OPTIONS, readProfileFileForm, type ProfileFileForm, type StagedProfileFile } from './upload.ts';

// POST /api/v1/profiles/upload_file in a scope of its own: multipart/form-data is parsed here and nowhere else.
export async function profileFileUploadRoute(app: FastifyInstance, options: { deps: ProfileFileDeps }): Promise<void> {
  const { deps } = options;
  await app.register(fastifyMultipart, PROFILE_FILE_MULTIPART_OPTIONS);
  // The file a request staged, until the flow keeps it or the request ends without it.
  const stagedOf = new WeakMap<FastifyRequest, StagedProfileFile>();
  // Never throws: a leftover temporary file is swept later (DocumentStore), and must not turn an answer into a 500.
  const discardStaged = async (request: FastifyRequest) => {
    const staged = stagedOf.get(request);
    stagedOf.delete(request);
    if (!staged) return;
    await deps.files.discard(staged.staged).catch((error: unknown) => request.log.warn({ err: error }, 'a staged profile file could not be removed'));
  };

  // The body is the form preValidation read, then the value validateUploadForm made of it.
  app.post<{ Querystring: Static<typeof SegregatedQuery>; Body: ProfileFileForm | UploadFileValue }>(
    '/api/v1/profiles/upload_file',
    {
      schema: {
        operationId: 'coreUploadProfileFile',
        summary: 'Upload a KYC document of the profile (multipart/form-data: kind, file)',
        description:
          'Needs a live session (header session-token). The file is recognised by its content (PDF, PNG or JPEG), at most 10 MiB, at most 20 live files per kind; kept in the profile files folder (0700, files 0600) under a random name. segregated_account_id files it under a business account you are a member of. Errors: 401, 403, 413 file_too_large, 415 not multipart, 422 kind, unsupported_file_type, too_many_files.',
        tags: ['core banking: profiles'],
        security: [{ sessionToken: [] }],
        consumes: ['multipart/form-data'],
        querystring: SegregatedQuery,
        body: UploadFileForm,
        response: {
          200: UploadFileResponse,
          400: UploadUnreadable,
          401: CoreErrorEnvelope,
          403: ActingForbidden,
          413: UploadTooLarge,
          415: UploadNotMultipart,
          422: UploadRefused,
        },
      },
      validatorCompiler: ({ httpPart }) => (httpPart === 'body' ? validateUploadForm : validateUploadQuery),
      preValidation: async (request, reply) => {
        if (!request.isMultipart()) throw new CoreApiError('unsupported_media_type', 415, 'Content-Type must be multipart/form-data');
        reply.raw.once('close', () => void discardStaged(request)); // a client that went away leaves nothing behind
        const form = await readProfileFileForm(request, deps.files);
        if (form.file !== null) stagedOf.set(request, form.file);
        request.body = form;
      },
      preHandler: actingProfile(app),
      onSend: async (request, _reply, payload) => {
        await discardStaged(request); // a kept file was renamed: only refused requests leave anything to remove
        return payload;
      },
    },
    async (request) => {
      if (!('kind' in request.body)) throw new Error('the upload form reached the handler unvalidated');
      const { kind, file } = request.body;
      const kept = await uploadProfileFile(deps, request.actingProfileId!, { kind, staged: file.staged, fileName: file.fileName, mediaType: file.mediaType });
      return { success: true as const, status: 200 as const, file: presentProfileFile(kept.file, kept.fileIndex) };
    },
  );
}
