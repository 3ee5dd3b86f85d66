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
