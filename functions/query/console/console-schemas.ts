import * as z from 'zod';
import { ObjectIdentitySchema, TimeViewSchema } from '../schemas/common-schemas.ts';
import { JobSummarySchema } from '../schemas/job-schemas.ts';
import { apiSchemas } from '../schemas/registry.ts';
import { FLEET_STATES } from './fleet-state.ts';

// The responses of the routes the web console reads (console-routes.ts).

const count = z.number().int().min(0);
const FleetStateSchema = z.enum(FLEET_STATES);

export const FleetItemSchema = JobSummarySchema.extend({
  state: FleetStateSchema.meta({
    description:
      'Succeeded or Failed from the interim condition on (SuccessCriteriaMet, FailureTarget); Suspended, Rejected; else Running.',
  }),
  reason: z.string().meta({ description: "The latest condition's reason; empty when there is none." }),
}).register(apiSchemas, { id: 'FleetItem', description: 'A Job or JobSet of the fleet, with its state.' });

export const FleetOverviewSchema = z
  .strictObject({
    items: z.array(FleetItemSchema),
    total: count.meta({ description: 'Objects matching every filter.' }),
    offset: count,
    nextOffset: count.optional().meta({ description: 'Present when more objects match: pass it as `offset`.' }),
    attention: z
      .strictObject({ stalled: count, refusedUpdate: count })
      .meta({ description: 'Objects that are stalled or carry a refused update, under the kind, cluster and namespace filters only.' }),
    counts: z
      .array(z.strictObject({ kind: z.enum(['Job', 'JobSet']), state: FleetStateSchema, reason: z.string(), count }))
      .meta({ description: 'Objects by kind, state and reason, under the kind, cluster and namespace filters only.' }),
    clusters: z.array(z.string()).meta({ description: 'Every cluster with an object, for filters.' }),
    namespaces: z.array(z.string()).meta({ description: 'Every namespace with an object (in the cluster filtered on).' }),
  })
  .register(apiSchemas, { id: 'FleetOverview', description: 'One page of the fleet with counts by state and reason.' });

const indexes = (description: string) => z.string().meta({ description: `${description}, as an interval list (\`1,3-5\`).` });

export const JobIndexesSchema = z
  .strictObject({
    job: ObjectIdentitySchema,
    at: z.strictObject({ seq: count, recordedAt: TimeViewSchema.optional() }),
    head: count,
    completions: count.nullable().meta({ description: 'null for a NonIndexed Job, which has no indexes.' }),
    succeeded: indexes('status.completedIndexes'),
    failed: indexes('status.failedIndexes (backoffLimitPerIndex)'),
    active: indexes('Indexes with an active pod'),
    terminating: indexes('Indexes with a terminating pod'),
  })
  .register(apiSchemas, { id: 'JobIndexes', description: 'Per-index state of an Indexed Job at a point of its log.' });

export const JobTimelineSchema = z
  .strictObject({
    job: ObjectIdentitySchema,
    head: count,
    firstRecordedAt: TimeViewSchema.optional(),
    lastRecordedAt: TimeViewSchema.optional(),
    transitions: z.array(
      z.strictObject({
        seq: z.number().int().min(1),
        at: TimeViewSchema,
        type: z.string(),
        status: z.string(),
        reason: z.string(),
        message: z.string(),
      }),
    ),
  })
  .register(apiSchemas, { id: 'JobTimeline', description: 'Every condition change of a Job, in log order.' });
