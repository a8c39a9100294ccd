import { ObservationSchema } from '../../shared/job/index.ts';
import type { EntryCategory } from './history-page.ts';
import { issuesCommands } from './issued-commands.ts';

const OBSERVATION_TYPES: ReadonlySet<string> = new Set(ObservationSchema.options.map((o) => o.shape.type.value));

/** Which part of a Job's history an entry type belongs to. */
export function jobEntryCategory(type: string): EntryCategory {
  if (OBSERVATION_TYPES.has(type)) return 'observation';
  return issuesCommands(type) ? 'command' : 'decision';
}
