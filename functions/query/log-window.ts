import type { LogEntry } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import type { JobEvent } from '../../shared/job/index.ts';

/**
 * Consecutive entries of a Job's log that one request read, each parsed into its event only
 * when a reader asks for it, and once. The Job view reads a window of up to 5,000 entries but
 * folds only those after the newest snapshot and cites a few others; the rest it reads for
 * their commands and the commands' effects (issued-commands.ts), which need far less than a
 * parsed pod. Parsing every entry of the window in full was most of the view's CPU.
 */
export class LogWindow {
  readonly entries: readonly LogEntry[];
  private readonly events = new Map<number, JobEvent>();

  constructor(entries: readonly LogEntry[]) {
    this.entries = entries;
  }

  /** The first position held; Infinity when empty. */
  get from(): number {
    return this.entries[0]?.seq ?? Infinity;
  }

  /** The last position held; 0 when empty. */
  get last(): number {
    return this.entries.at(-1)?.seq ?? 0;
  }

  /** The entry at `seq`, if the window holds it. */
  entry(seq: number): LogEntry | undefined {
    return seq >= this.from && seq <= this.last ? this.entries[seq - this.from] : undefined;
  }

  /** The event at `seq`, parsed (once), if the window holds it. */
  event(seq: number): JobEvent | undefined {
    const known = this.events.get(seq);
    if (known !== undefined) return known;
    const entry = this.entry(seq);
    if (entry === undefined) return undefined;
    const event = entryEvent(entry);
    this.events.set(seq, event);
    return event;
  }

  /** The event at `seq` if a reader had it parsed already. */
  parsed(seq: number): JobEvent | undefined {
    return this.events.get(seq);
  }

  /** The events after position `seq`, parsed. */
  eventsAfter(seq: number): JobEvent[] {
    const result: JobEvent[] = [];
    for (let position = Math.max(seq + 1, this.from); position <= this.last; position++) result.push(this.event(position)!);
    return result;
  }
}
