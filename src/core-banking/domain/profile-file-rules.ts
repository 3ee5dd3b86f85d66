// KYC documents of a profile (POST /api/v1/profiles/upload_file, delete_file): the categories a file is filed
// under and the bounds of what one profile keeps. The accepted formats are the dispute evidence ones
// (lib/document-store.ts: PDF, PNG, JPEG, recognised by content).

export const PROFILE_FILE_KINDS = ['passport', 'id_card', 'driving_licence', 'proof_of_address', 'selfie', 'company_registration', 'other'] as const;
export type ProfileFileKind = (typeof PROFILE_FILE_KINDS)[number];

export const PROFILE_FILE_SIZE_MAX_BYTES = 10 * 1024 * 1024;
export const PROFILE_FILES_PER_KIND_MAX = 20; // live (not deleted) files of one kind
