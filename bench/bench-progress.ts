import { progress, type ProgressStream } from '../cli/progress.ts';

// Progress of the bench's long phases on stderr (issue 11): a line that says what runs and how
// far it got (`service path: published 3,200/6,533 events  410/s  ETA 8s`), redrawn on a
// terminal and quiet when stderr is not one (cli/progress.ts), so `--json` keeps stdout pure
// JSON and a piped or CI run stays clean.

export interface Phase {
  /** `done` of the total are finished. */
  update(done: number): void;
  end(): void;
}

/** A phase whose progress is counted by the caller. */
export function phase(label: string, total: number, stream?: ProgressStream): Phase {
  return progress(label, total, stream ? { stream } : {});
}

/**
 * Runs `work` while a phase polls `done()` every quarter second: for waits whose progress is
 * somebody else's count (commands published while the stack works off its backlog).
 */
export async function watched<T>(label: string, total: number, done: () => number, work: Promise<T>): Promise<T> {
  const shown = phase(label, total);
  const timer = setInterval(() => shown.update(done()), 250);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    shown.end();
  }
}
