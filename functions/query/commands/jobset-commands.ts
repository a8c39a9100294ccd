import type * as z from 'zod';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { jobSetEntryCategory, loggedJobSetDecisions } from '../jobsets/jobset-entries.ts';
import type { JobSetCommandSchema } from '../jobsets/jobset-schemas.ts';
import { commandViews } from '../views.ts';
import type { CommandSource } from './commands-page.ts';

// A JobSet's commands as the commands list pages them: one per `…Issued` decision (create,
// delete, suspend or resume a child Job), exactly as the JobSet view lists them.

type JobSetCommand = z.output<typeof JobSetCommandSchema>;

export const jobSetCommandSource: CommandSource<JobSetCommand> = {
  isCommand: (type) => jobSetEntryCategory(type) === 'command',
  group(entry: LogEntry) {
    // A decision logged without a command id lists nothing, as in the JobSet view.
    const [command] = commandViews(loggedJobSetDecisions([entry]));
    return command === undefined ? { size: 0, slice: () => { throw new Error('no command'); } } : { size: 1, slice: () => command };
  },
};
