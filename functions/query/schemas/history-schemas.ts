import * as z from 'zod';
import { ObjectIdentitySchema, TimeViewSchema } from './common-schemas.ts';
import { apiSchemas } from './registry.ts';

/** observation: reported by a cluster; decision: concluded by jobfold; command: a decision that issues commands. */
export const EntryCategorySchema = z
  .enum(['observation', 'decision', 'command'])
  .register(apiSchemas, { id: 'EntryCategory', description: 'observation: reported by a cluster; decision: concluded by jobfold; command: a decision that issues commands to the cluster.' });

export const HistoryEntrySchema = z
  .strictObject({
    seq: z.number().int().min(1),
    eventId: z.string(),
    type: z.string().meta({ description: 'PodObserved, JobObserved, JobConditionChanged, PodsTerminationRequested, …' }),
    category: EntryCategorySchema,
    observedAt: TimeViewSchema.optional().meta({ description: 'Observations: when the cluster saw it.' }),
    at: TimeViewSchema.optional().meta({ description: 'Decisions and commands: when jobfold decided.' }),
    recordedAt: TimeViewSchema.meta({ description: 'When the entry was written to the log.' }),
    body: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The event as logged (docs/events.md); decisions carry their evidence here.' }),
  })
  .register(apiSchemas, { id: 'HistoryEntry', description: 'One entry of an object\'s log.' });

export const HistoryPageSchema = z
  .strictObject({
    object: ObjectIdentitySchema,
    head: z.number().int().min(0),
    entries: z.array(HistoryEntrySchema),
    nextAfter: z.number().int().min(1).optional().meta({ description: 'Present when more entries follow: pass it as `after`.' }),
  })
  .register(apiSchemas, { id: 'HistoryPage' });
