import type { StreamId } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import { jobSetEntryEvent } from '../../shared/jobset/index.ts';
import type { JobEvent } from '../../shared/job/index.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import { whatIfJob, whatIfJobSet, WhatIfPatchError, type AnyWhatIfReport, type WhatIfReport } from '../../shared/whatif/index.ts';
import type { QueryDeps } from './http.ts';
import { readLog } from './object-log.ts';
import { patchRefused } from './whatif-body.ts';

/**
 * A stored Job's or JobSet's log, read page by page, refolded under the patch (docs/whatif.md):
 * a JobSet's log holds its own events, its child Jobs' statuses and its decisions. A refused
 * patch is a 400 (BadRequestError) with upstream's validation messages.
 */
export async function whatIfStored(deps: QueryDeps, stream: StreamId, patch: unknown): Promise<AnyWhatIfReport> {
  const { entries } = await readLog(deps.store, stream);
  if (stream.kind === 'JobSet') return refusedAs400(() => whatIfJobSet({ log: entries.map((entry) => ({ seq: entry.seq, event: jobSetEntryEvent(entry) })), patch }));
  return whatIfEvents(entries.map(entryEvent), patch, deps.config);
}

/** A decoded Job log refolded under the patch (the fleet what-if's, one Job at a time). */
export const whatIfEvents = (log: readonly JobEvent[], patch: unknown, config: FoldConfig): WhatIfReport => refusedAs400(() => whatIfJob({ log, config, patch }));

function refusedAs400<T>(refold: () => T): T {
  try {
    return refold();
  } catch (error) {
    if (error instanceof WhatIfPatchError) throw patchRefused(error);
    throw error;
  }
}
