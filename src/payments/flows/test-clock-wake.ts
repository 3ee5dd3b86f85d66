import type { Database } from '../../platform/database.ts';
import { TEST_CLOCKS_CHANNEL } from '../store/test-clocks-repo.ts';

// Calls onAdvance whenever any process advanced a test clock (the advance NOTIFYs on commit), and whenever
// notifications may have been missed: the workers then look for due work at once instead of at their next poll.
// The returned function stops listening.
export async function watchTestClockAdvances(database: Pick<Database, 'listen'>, onAdvance: () => void): Promise<() => Promise<void>> {
  return database.listen(TEST_CLOCKS_CHANNEL, onAdvance);
}
