import { PROFILE_FILES_PER_KIND_MAX, type ProfileFileKind } from '../domain/profile-file-rules.ts';
import type { DocumentMediaType, DocumentStore, StagedDocument } from '../../platform/lib/document-store.ts';
import type { Db } from '../../platform/database.ts';
import { countLiveProfileFiles, insertProfileFile, liveProfileFiles, markProfileFileDeleted, type ProfileFileRow } from '../store/profile-files-repo.ts';
import { lockProfile } from '../store/profiles-repo.ts';
import { limitReached, notFound } from '../domain/core-refusals.ts';

export interface ProfileFileDeps {
  db: Db;
  files: DocumentStore; // the profile files folder (PAYRAIL_PROFILE_FILES_DIR)
}

// A KYC document as the upload left it: staged under a temporary name, its type read from its content.
export interface IncomingProfileFile {
  kind: ProfileFileKind;
  staged: StagedDocument;
  fileName: string; // sanitized, for display only
  mediaType: DocumentMediaType;
}

// POST /api/v1/profiles/upload_file: the file gets its stored name, then its row, within the kind's limit (the
// profile row is locked so two uploads cannot both take the last place). A refusal removes the file again.
export async function uploadProfileFile(
  deps: ProfileFileDeps,
  profileId: number,
  upload: IncomingProfileFile,
): Promise<{ file: ProfileFileRow; fileIndex: number }> {
  const storedName = await deps.files.keep(upload.staged);
  try {
    return await deps.db.transaction(async (tx) => {
      await lockProfile(tx, profileId);
      const live = await countLiveProfileFiles(tx, profileId, upload.kind);
      if (live >= PROFILE_FILES_PER_KIND_MAX) {
        throw limitReached('too_many_files', `a profile keeps at most ${PROFILE_FILES_PER_KIND_MAX} files of kind ${upload.kind}: delete one first`);
      }
      const file = await insertProfileFile(tx, {
        profileId,
        kind: upload.kind,
        fileName: upload.fileName,
        contentType: upload.mediaType,
        storedName,
        sizeBytes: upload.staged.sizeBytes,
        sha256: upload.staged.sha256,
      });
      return { file, fileIndex: live };
    });
  } catch (error) {
    await deps.files.remove(storedName).catch(() => {}); // unreferenced: harmless if it stays
    throw error;
  }
}

// POST /api/v1/profiles/delete_file: file_index is the file's place (from 0) among the profile's live files of the
// kind, in upload order. The row stays, marked deleted; the bytes are removed once that is committed.
// bytesRemoved false: the deletion holds, but the folder refused to let go of the bytes (the caller logs it).
export async function deleteProfileFile(
  deps: ProfileFileDeps,
  profileId: number,
  kind: ProfileFileKind,
  fileIndex: number,
): Promise<{ file: ProfileFileRow; bytesRemoved: boolean }> {
  const found = (await liveProfileFiles(deps.db, profileId, kind))[fileIndex];
  const deleted = found === undefined ? null : await markProfileFileDeleted(deps.db, found.id);
  if (deleted === null) throw notFound('profile_file', `the profile has no file ${fileIndex} of kind ${kind}`);
  const bytesRemoved = await deps.files.remove(deleted.storedName).then(
    () => true,
    () => false,
  );
  return { file: deleted, bytesRemoved };
}
