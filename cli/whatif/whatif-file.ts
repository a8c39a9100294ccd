import type { JobEvent } from '../../shared/job/index.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import type { JobSetLogEntry } from '../../shared/whatif/index.ts';
import { loadReplayInput } from '../replay/load-input.ts';
import { playInput } from '../replay/play-input.ts';

/** A record from a FILE: the log `jobfold replay` would build (a Job's or a JobSet's). */
export type RecordedFile =
  | { readonly kind: 'Job'; readonly log: readonly JobEvent[]; readonly config: FoldConfig; readonly title: string }
  | { readonly kind: 'JobSet'; readonly log: readonly JobSetLogEntry[]; readonly title: string };

/**
 * Reads FILE and plays it as `jobfold replay` does (without --at or --gate): that replay is the
 * record. A JobSet trace is played through the service on the in-memory store, so its log holds
 * the child Jobs' statuses as jobfold computed them.
 */
export async function recordFromFile(file: string): Promise<RecordedFile> {
  const replayed = await playInput(loadReplayInput(file), { file, at: undefined, gates: {} });
  if (replayed.kind === 'JobSet') {
    const { run } = replayed;
    const meta = run.state.jobSet?.metadata;
    const name = meta?.name ? `${meta.namespace ?? 'default'}/${meta.name}` : file;
    return { kind: 'JobSet', log: run.log, title: `What-if for JobSet ${name} (${file})` };
  }
  const { run } = replayed;
  const identity = run.state.identity;
  const name = identity ? `${identity.namespace}/${identity.name}` : file;
  return { kind: 'Job', log: run.log, config: run.state.config, title: `What-if for Job ${name} (${file})` };
}
