import * as z from 'zod';
import { ClusterIdSchema } from '../../shared/job/index.ts';
import { TimeSchema } from '../../shared/k8s/schema-helpers.ts';

// The request parameters of every route, parsed once at the boundary (parse-params.ts) and
// documented from the same schemas (openapi.ts). Query strings are strings: numbers are parsed
// from digits only, so `1e3`, ` 5` or `0x10` are refused rather than guessed at.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DIGITS = /^[0-9]{1,15}$/;

/** A whole number in a query string, within `min..max`. */
export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(DIGITS, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const MAX_LIST_LIMIT = 100;
export const DEFAULT_LIST_LIMIT = 20;
export const MAX_HISTORY_LIMIT = 500;
export const DEFAULT_HISTORY_LIMIT = 100;

export const ClusterParamSchema = ClusterIdSchema.meta({
  description: 'The cluster id: the `<clusterId>` of the event source `jobfold.cluster.<clusterId>`.',
  examples: ['c1'],
});
export const NamespaceParamSchema = z
  .string()
  .max(63)
  .regex(DNS1123_LABEL, 'must be a lowercase RFC 1123 label')
  .meta({ description: 'The namespace (an RFC 1123 label).', examples: ['default'] });
export const NameParamSchema = z
  .string()
  .max(253)
  .regex(DNS1123_SUBDOMAIN, 'must be a lowercase RFC 1123 subdomain')
  .meta({ description: 'The object name (an RFC 1123 subdomain).', examples: ['foobar'] });
export const UidParamSchema = z
  .string()
  .min(1)
  .max(128)
  // A uid the API server gave never holds a control character (a NUL, an escape): refused here,
  // naming the parameter, rather than looked up and answered 404 with the NUL in the message.
  .regex(/^\P{Cc}*$/u, 'must not contain control characters')
  .meta({ description: 'metadata.uid, to pick one object when its name was reused; default: the object the name shows (one not deleted first, then the newest creationTimestamp, then the latest to arrive).' });

/** `/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}` and its JobSet twin. */
export const ObjectPathSchema = z.object({
  cluster: ClusterParamSchema,
  namespace: NamespaceParamSchema,
  name: NameParamSchema,
});
export type ObjectPath = z.output<typeof ObjectPathSchema>;

const listCursorParam = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .meta({
    description:
      'Opaque and signed: the `nextCursor` of the previous page, with the same filters. A cursor the API did not ' +
      'return, or one returned for other filters, is a 400 at `query.cursor`.',
  });

const conditionParam = (objects: string, examples: string) =>
  z
    .string()
    .max(63)
    .regex(/^[A-Za-z][A-Za-z0-9]*$/, 'must be a condition type such as Complete or Failed')
    .optional()
    .meta({ description: `Only ${objects} whose latest condition has this type (${examples}).` });

/** `GET /v1/jobs`: the fleet list of Jobs. */
export const ListQuerySchema = z.strictObject({
  cluster: ClusterParamSchema.optional(),
  namespace: NamespaceParamSchema.optional(),
  condition: conditionParam('Jobs', '`Complete`, `Failed`, `SuccessCriteriaMet`, `FailureTarget`, `Suspended`, `Rejected`'),
  limit: wholeNumber(1, MAX_LIST_LIMIT)
    .default(DEFAULT_LIST_LIMIT)
    .meta({ description: `Page size, 1..${MAX_LIST_LIMIT}.` }),
  cursor: listCursorParam,
});

/** `GET /v1/jobsets`: the same filters, with the JobSet condition types. */
export const JobSetListQuerySchema = ListQuerySchema.extend({
  condition: conditionParam(
    'JobSets',
    '`Completed`, `Failed`, `Suspended`, `StartupPolicyInProgress`, `StartupPolicyCompleted`, `RestartingJobSet`',
  ),
});
export type ListQuery = z.output<typeof ListQuerySchema>;

export const MAX_TERMINATED_PODS_LIMIT = 1000;
export const DEFAULT_TERMINATED_PODS_LIMIT = 500;

/** `…/explain`: the Job by `uid`, and which page of its terminated pods. */
export const ExplainQuerySchema = z.strictObject({
  uid: UidParamSchema.optional(),
  podsAfter: wholeNumber(0, Number.MAX_SAFE_INTEGER)
    .default(0)
    .meta({ description: 'List the terminated pods decided after this log position: the `terminatedPodsNextAfter` of the previous page (0 = from the start).' }),
  podsLimit: wholeNumber(1, MAX_TERMINATED_PODS_LIMIT)
    .default(DEFAULT_TERMINATED_PODS_LIMIT)
    .meta({ description: `Terminated pods per page, 1..${MAX_TERMINATED_PODS_LIMIT} (a page keeps each decision's pods together, so it may hold a few more).` }),
});
export type ExplainQuery = z.output<typeof ExplainQuerySchema>;

/** Routes without parameters refuse any, as every route refuses one it does not know. */
export const NoQuerySchema = z.strictObject({});

/** Routes that name one object take `uid` only. */
export const ObjectQuerySchema = z.strictObject({ uid: UidParamSchema.optional() });

export const HistoryQuerySchema = z.strictObject({
  uid: UidParamSchema.optional(),
  after: wholeNumber(0, Number.MAX_SAFE_INTEGER)
    .default(0)
    .meta({ description: 'Return entries with a larger seq: the `nextAfter` of the previous page (0 = from the start).' }),
  limit: wholeNumber(1, MAX_HISTORY_LIMIT)
    .default(DEFAULT_HISTORY_LIMIT)
    .meta({ description: `Page size, 1..${MAX_HISTORY_LIMIT}.` }),
});
export type HistoryQuery = z.output<typeof HistoryQuerySchema>;

/** A point in a log: a log position, or a time compared with each entry's `recordedAt`. */
export type LogPoint = { readonly seq: number } | { readonly time: string };

export const AtParamSchema = z
  .union(
    [
      z.string().regex(DIGITS).transform((s): LogPoint => ({ seq: Number(s) })),
      TimeSchema.transform((time): LogPoint => ({ time })),
    ],
    { error: 'must be a log position (a whole number) or an RFC 3339 time' },
  )
  .meta({
    description:
      'A log position (`42`: the status after folding entries 1..42), or an RFC 3339 time ' +
      '(`2026-01-01T00:05:00Z`: the status after folding every entry recorded by then, i.e. the ' +
      'longest prefix of the log whose `recordedAt` is at or before that time). Default: the head.',
  });

export const StatusQuerySchema = z.strictObject({
  uid: UidParamSchema.optional(),
  at: AtParamSchema.optional(),
});
export type StatusQuery = z.output<typeof StatusQuerySchema>;
