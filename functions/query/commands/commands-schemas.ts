import * as z from 'zod';
import { JobSetCommandSchema } from '../jobsets/jobset-schemas.ts';
import { ObjectIdentitySchema } from '../schemas/common-schemas.ts';
import { IssuedCommandSchema } from '../schemas/job-schemas.ts';
import { apiSchemas } from '../schemas/registry.ts';

// The commands list's responses: the Job view's commands (IssuedCommand) with the decision that
// issued them and, for pod commands, which slice of the decision's pods a page holds.

const [terminate, create, status, finalizers] = IssuedCommandSchema.options;

const decision = <T extends string>(type: T) =>
  ({ decision: z.literal(type).meta({ description: 'The logged decision that issued the commands; `seq` is its log position.' }) });

const slice = {
  podsFrom: z.number().int().min(0).meta({
    description: "Index in the decision's pod list of the first pod listed here: a decision naming more pods than a page holds is listed on several pages, each with its slice.",
  }),
  podsOf: z.number().int().min(0).meta({ description: 'Pods the decision names in all.' }),
};

export const PagedJobCommandSchema = z
  .discriminatedUnion('type', [
    terminate.omit({ observed: true }).extend({ ...decision('PodsTerminationRequested'), ...slice }),
    create.omit({ observed: true }).extend(decision('PodCreationsRequested')),
    status.extend(decision('JobStatusSent')),
    finalizers.omit({ observed: true }).extend({ ...decision('PodFinalizersRemovalRequested'), ...slice }),
  ])
  .register(apiSchemas, {
    id: 'PagedJobCommand',
    description: "Commands one logged decision issued, or a slice of a decision's pods. What the cluster later reported (`observed`) is in the Job view only.",
  });

/** Holds while the paged list has every command of the Job view: a variant added there and not here fails typecheck. */
type UnpagedCommand = Exclude<z.output<typeof IssuedCommandSchema>['type'], z.output<typeof PagedJobCommandSchema>['type']>;
const _everyCommandPaged: [UnpagedCommand] extends [never] ? true : UnpagedCommand = true;

const through = z.number().int().min(0).meta({
  description: 'Every command decided at or before this log position is on this page or an earlier one (the head, on the last page).',
});

const nextCursor = z.string().optional().meta({
  description: 'Present while more of the log may hold commands: pass it as `after` for the next page. A page may hold fewer commands than `limit` (even none) and still have one.',
});

export const JobCommandsPageSchema = z
  .strictObject({
    object: ObjectIdentitySchema,
    head: z.number().int().min(0).meta({ description: 'The log head when the page was read.' }),
    through,
    items: z.array(PagedJobCommandSchema),
    nextCursor,
  })
  .register(apiSchemas, { id: 'JobCommandsPage', description: "One page of every command jobfold decided for a Job, oldest first." });

export const JobSetCommandsPageSchema = z
  .strictObject({
    object: ObjectIdentitySchema,
    head: z.number().int().min(0).meta({ description: 'The log head when the page was read.' }),
    through,
    items: z.array(JobSetCommandSchema),
    nextCursor,
  })
  .register(apiSchemas, { id: 'JobSetCommandsPage', description: "One page of every command jobfold decided for a JobSet, oldest first." });
