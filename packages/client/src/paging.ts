// Keyset paging: each page names where the next one starts (nextCursor, null on the last page). The iterator asks for
// a page only when the caller has consumed the previous one, so breaking out of a `for await` stops the requests.

interface CursorPage {
  nextCursor: string | null;
}

export async function* itemsOfPages<Page extends CursorPage, Item>(
  readPage: (cursor: string | undefined) => Promise<Page>,
  itemsOf: (page: Page) => readonly Item[],
): AsyncGenerator<Item, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    yield* itemsOf(page);
    if (page.nextCursor === null || page.nextCursor === '') return;
    // A cursor that comes back would page forever: the list changed under us in a way keyset paging cannot follow.
    if (seen.has(page.nextCursor)) throw new Error('Payrail answered a nextCursor it had answered before');
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}
