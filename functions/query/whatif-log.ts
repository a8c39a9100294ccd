import type { LogEntry, StreamId } from '../../shared/app/event-store.ts';
import { entryEvent } from '../../shared/app/log-codec.ts';
import type { JobEvent } from '../../shared/job/evolve.ts';
import type { FoldConfig } from '../../shared/job/state.ts';
import { WhatIfPatchError } from '../../shared/whatif/patch-job.ts';
import type { WhatIfReport } from '../../shared/whatif/report.ts';
import { whatIfJob } from '../../shared/whatif/what-if.ts';
import type { QueryDeps } from './http.ts';
import { readLog } from './object-log.ts';
import { patchRefused } from './whatif-body.ts';

/** Reads a stored Job's log page by page and refolds it under the patch. */
export async function whatIfStoredJob(deps: QueryDeps, stream: StreamId, patch: unknown, config: FoldConfig = deps.config): Promise<WhatIfReport> {
  const { entries } = await readLog(deps.store, stream);
  return whatIfEntries(entries, patch, config);
}

/** A stored Job's entries refolded under the patch; a refused patch is a 400 (BadRequestError). */
export function whatIfEntries(entries: readonly LogEntry[], patch: unknown, config: FoldConfig): WhatIfReport {
  return whatIfEvents(entries.map(entryEvent), patch, config);
}

/** A decoded log refolded under the patch; a refused patch is a 400 (BadRequestError). */
export function whatIfEvents(log: readonly JobEvent[], patch: unknown, config: FoldConfig): WhatIfReport {
  try {
    return whatIfJob({ log, config, patch });
  } catch (error) {
    if (error instanceof WhatIfPatchError) throw patchRefused(error);
    throw error;
  }
}
