import type { DocumentMediaType, DocumentStore, StagedDocument } from '../../platform/lib/document-store.ts';
import type { NewDisputeDocument } from '../store/disputes-repo.ts';

export interface IncomingDocument {
  staged: StagedDocument;
  fileName: string; // sanitized, for display only
  mediaType: DocumentMediaType;
}

// Staged uploads get their stored names, then `record` stores them (in its transaction); whatever fails after the
// names were given removes the files again (unreferenced, so harmless if one stays). Opening a dispute and adding
// evidence to one keep their documents this one way.
export async function withKeptDocuments<T>(
  store: DocumentStore,
  incoming: readonly IncomingDocument[],
  record: (documents: NewDisputeDocument[]) => Promise<T>,
): Promise<T> {
  const kept: string[] = [];
  try {
    const documents: NewDisputeDocument[] = [];
    for (const document of incoming) {
      const storedName = await store.keep(document.staged);
      kept.push(storedName);
      const { fileName, mediaType } = document;
      documents.push({ fileName, storedName, mediaType, sizeBytes: document.staged.sizeBytes, sha256: document.staged.sha256 });
    }
    return await record(documents);
  } catch (error) {
    await Promise.allSettled(kept.map((storedName) => store.remove(storedName)));
    throw error;
  }
}
