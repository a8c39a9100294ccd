import * as z from 'zod';
import { apiSchemas } from './registry.ts';

// Shapes several routes share: conditions, object identity, errors.

const time = z.string().meta({ format: 'date-time' });
export const TimeViewSchema = time;

/** A batch/v1 JobCondition (or JobSet condition), as the API server writes it. */
export const ConditionViewSchema = z
  .strictObject({
    type: z.string(),
    status: z.string(),
    reason: z.string(),
    message: z.string(),
    lastTransitionTime: time,
    lastProbeTime: time.optional(),
  })
  .register(apiSchemas, { id: 'Condition', description: 'A condition as the Kubernetes API writes it.' });

/** Which object a response is about. */
export const ObjectIdentitySchema = z
  .strictObject({
    clusterId: z.string(),
    namespace: z.string(),
    name: z.string(),
    uid: z.string(),
  })
  .register(apiSchemas, { id: 'ObjectIdentity', description: 'The cluster, namespace, name and metadata.uid of a Job or JobSet.' });

/** An object's explanation in brief (shared/read-model/explanation.ts `briefOf`), as its view carries it. */
export const ExplanationBriefSchema = <Outcome extends z.ZodType>(outcome: Outcome) =>
  z.strictObject({
    outcome,
    summary: z.string(),
    conditions: z.array(z.strictObject({ type: z.string(), status: z.string(), reason: z.string(), sentence: z.string() })),
    rejection: z.array(z.string()),
  });

/** Where a log stands: its last seq, and when that entry was recorded. */
export const LogHeadSchema = z
  .strictObject({
    head: z.number().int().min(0).meta({ description: 'The seq of the last entry (0: empty).' }),
    lastRecordedAt: time.optional(),
  })
  .register(apiSchemas, { id: 'LogHead' });

export const FieldIssueSchema = z
  .strictObject({
    path: z.string().meta({ description: '`query.<name>` or `path.<name>`.', examples: ['query.limit'] }),
    message: z.string(),
  })
  .register(apiSchemas, { id: 'FieldIssue' });

export const ErrorSchema = z
  .strictObject({
    message: z.string(),
    errors: z.array(FieldIssueSchema).optional().meta({ description: '400 only: one entry per bad parameter.' }),
    requestId: z.string().optional().meta({ description: '500 only: quote it when reporting the problem.' }),
  })
  .register(apiSchemas, { id: 'Error', description: 'Every error response. Never carries a stack trace.' });
