// Everything the benchmark starts or creates registers its undo here, so a failure or Ctrl-C
// still stops every server, drops every bench database and removes every temp folder.
export class CleanupStack {
  private readonly tasks = new Map<number, { label: string; undo: () => Promise<void> }>();
  private nextId = 0;

  // Registers an undo and returns a function that runs it now (once) and unregisters it.
  defer(label: string, undo: () => Promise<void> | void): () => Promise<void> {
    const id = this.nextId++;
    this.tasks.set(id, { label, undo: async () => undo() });
    return async () => {
      const task = this.tasks.get(id);
      if (!task) return;
      this.tasks.delete(id);
      await task.undo();
    };
  }

  // Undoes in reverse order of registration; a failing undo is reported and the rest still run.
  async runAll(report: (line: string) => void): Promise<void> {
    const pending = [...this.tasks.entries()].reverse();
    this.tasks.clear();
    for (const [, task] of pending) {
      try {
        await task.undo();
      } catch (error) {
        report(`cleanup: ${task.label} failed: ${(error as Error).message}`);
      }
    }
  }
}

// Runs a script's main with its cleanup: one cleanup, whoever asks first (SIGINT/SIGTERM, or main ending, which an
// interrupted main soon does with an error), and the exit waits for it (130 after a signal, else main's code, 1 on
// an error). stopping: what the cleanup undoes, for the signal's line; failed: printed after an error's stack.
export function runMainWithCleanup(
  cleanup: CleanupStack,
  options: { name: string; print: (line: string) => void; stopping: string; failed?: string },
  main: () => Promise<number>,
): void {
  let finishing: Promise<void> | null = null;
  const finish = (code: number): Promise<void> => {
    finishing ??= cleanup.runAll(options.print).finally(() => process.exit(code));
    return finishing;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      options.print(`\n${options.name}: ${signal}: ${options.stopping}`);
      void finish(130);
    });
  }
  main().then(
    (code) => finish(code),
    (error: unknown) => {
      if (finishing === null) {
        process.stderr.write(`${options.name}: ${(error as Error).stack ?? String(error)}\n`);
        if (options.failed) options.print(options.failed);
      }
      return finish(1);
    },
  );
}
