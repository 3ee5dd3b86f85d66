import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { deleteProfileFile, type ProfileFileDeps } from '../../flows/profile-files.ts';
import { showProfile } from '../../flows/profiles.ts';
import { DocumentStore } from '../../../platform/lib/document-store.ts';
import { actingProfile } from '../auth.ts';
import { presentProfile } from './present.ts';
import {
  ActingForbidden,
  CoreErrorEnvelope,
  DeleteFileBody,
  ProfileFileNotFound,
  SegregatedQuery,
  ShowQuery,
  ShowRefused,
  ShowResponse,
  SuccessResponse,
} from './schemas.ts';
import { profileFileUploadRoute } from './upload-route.ts';

const security = [{ sessionToken: [] }];
const tags = ['core banking: profiles'];
const errors = { 401: CoreErrorEnvelope, 403: ActingForbidden, 422: CoreErrorEnvelope, 429: CoreErrorEnvelope };

// The signed-in person's profile (spec 2.7), or a business account they act on, and its KYC documents.
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.payrail.database;
  const fileDeps: ProfileFileDeps = { db, files: new DocumentStore(app.payrail.config.profileFilesDir) };
  await app.register(profileFileUploadRoute, { deps: fileDeps });

  routes.get(
    '/api/v1/profiles/show',
    {
      schema: {
        operationId: 'coreShowProfile',
        summary: 'Show the profile with its bank accounts (of one currency when asked) and its KYC files',
        description:
          "Needs a live session (header session-token): the person's own profile, or with segregated_account_id a business account they are a member of. Errors: 401 session, 403 segregated_account_id not a business account you are a member of, 422 currency not 3 letters or unknown.",
        tags,
        security,
        querystring: ShowQuery,
        response: { 200: ShowResponse, ...errors, 422: ShowRefused },
      },
      preHandler: actingProfile(app),
    },
    async (request) => {
      const view = await showProfile({ db, currencies: app.payrail.currencies }, request.actingProfileId!, request.query.currency);
      return { success: true as const, status: 200 as const, object: { profile: presentProfile(view) } };
    },
  );

  routes.post(
    '/api/v1/profiles/delete_file',
    {
      schema: {
        operationId: 'coreDeleteProfileFile',
        summary: 'Delete a KYC document of the profile',
        description:
          "Needs a live session (header session-token). file_index is the file's place (from 0) among the profile's live files of that kind, in upload order (profiles/show lists them); the files after it move up one place. Errors: 401, 403, 404 no such file, 422.",
        tags,
        security,
        querystring: SegregatedQuery,
        body: DeleteFileBody,
        response: { 200: SuccessResponse, ...errors, 404: ProfileFileNotFound },
      },
      preHandler: actingProfile(app),
    },
    async (request) => {
      const deleted = await deleteProfileFile(fileDeps, request.actingProfileId!, request.body.kind, request.body.file_index);
      if (!deleted.bytesRemoved) request.log.warn({ profileFileId: deleted.file.id }, 'a deleted profile file could not be removed from the folder');
      return { success: true as const, status: 200 as const };
    },
  );
}
