import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { defaultJobSet } from '../../../shared/jobset/defaulting.ts';
import { JobSetSchema } from '../../../shared/jobset/schemas.ts';
import { validateJobSet } from '../../../shared/jobset/validation.ts';
import { JobSchema } from '../../../shared/k8s/job.ts';

// Every constraint the Job and JobSet schemas once enforced on something the API server
// validates has an input here that trips it. Each input must pass the parse (ingest accepts it)
// and then get upstream's error: field path, error type and message. The last test walks the
// schemas so that a new length cap or required field cannot come back unnoticed.

const source = 'jobfold.cluster.c1';
const envelope = (detailType: string, object: unknown) => ({
  source,
  'detail-type': detailType,
  detail: { eventId: 'e1', observedAt: '2026-01-01T00:00:00Z', object },
});

const validJob = () => ({
  metadata: { name: 'myjob', namespace: 'ns', uid: 'job-uid' },
  spec: {
    completionMode: 'Indexed',
    completions: 4,
    backoffLimitPerIndex: 1,
    podReplacementPolicy: 'Failed',
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } },
  },
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RawJob = { metadata: Record<string, any>; spec: Record<string, any> & { template: any } };
const GATES = { gates: { PodFailurePolicyName: true } };

interface SpecCase {
  readonly constraint: string;
  readonly change: (job: RawJob) => void;
  readonly field: string;
  readonly type: string;
  readonly message: string;
}

const rule = (extra: object) => ({ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] }, ...extra });
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);

const SPEC_CASES: SpecCase[] = [
  {
    constraint: 'spec required',
    change: (job) => delete (job as any).spec,
    field: 'spec.template.spec.restartPolicy',
    type: 'FieldValueRequired',
    message: 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  },
  {
    constraint: 'spec.template required',
    change: (job) => delete (job.spec as any).template,
    field: 'spec.template.spec.restartPolicy',
    type: 'FieldValueRequired',
    message: 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  },
  {
    constraint: 'spec.template.spec required',
    change: (job) => (job.spec.template = {} as any),
    field: 'spec.template.spec.restartPolicy',
    type: 'FieldValueRequired',
    message: 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  },
  {
    constraint: 'containers[].name required',
    change: (job) => (job.spec.template.spec.containers = [{} as any]),
    field: 'spec.template.spec.containers[0].name',
    type: 'FieldValueRequired',
    message: 'spec.template.spec.containers[0].name: Required value',
  },
  {
    constraint: 'podFailurePolicy.rules required',
    change: (job) => (job.spec.podFailurePolicy = { rules: [rule({ onExitCodes: { operator: 'In', values: [] } })] }),
    field: 'spec.podFailurePolicy.rules[0].onExitCodes.values',
    type: 'FieldValueInvalid',
    message: 'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required',
  },
  {
    constraint: 'podFailurePolicy.rules at most 1000',
    change: (job) => (job.spec.podFailurePolicy = { rules: range(1001).map(() => rule({})) }),
    field: 'spec.podFailurePolicy.rules',
    type: 'FieldValueTooMany',
    message: 'spec.podFailurePolicy.rules: Too many: 1001: must have at most 20 items',
  },
  {
    constraint: 'onExitCodes.values required',
    change: (job) => (job.spec.podFailurePolicy = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In' } }] }),
    field: 'spec.podFailurePolicy.rules[0].onExitCodes.values',
    type: 'FieldValueInvalid',
    message: 'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required',
  },
  {
    constraint: 'onExitCodes.values at most 1000',
    change: (job) => (job.spec.podFailurePolicy = { rules: [rule({ onExitCodes: { operator: 'In', values: range(1001) } })] }),
    field: 'spec.podFailurePolicy.rules[0].onExitCodes.values',
    type: 'FieldValueTooMany',
    message: 'spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 1001: must have at most 255 items',
  },
  {
    constraint: 'onPodConditions at most 1000',
    change: (job) =>
      (job.spec.podFailurePolicy = {
        rules: [{ action: 'Ignore', onPodConditions: range(1001).map(() => ({ type: 'DisruptionTarget', status: 'True' })) }],
      }),
    field: 'spec.podFailurePolicy.rules[0].onPodConditions',
    type: 'FieldValueTooMany',
    message: 'spec.podFailurePolicy.rules[0].onPodConditions: Too many: 1001: must have at most 20 items',
  },
  {
    constraint: 'podFailurePolicy.rules[].name at most 1024',
    change: (job) => (job.spec.podFailurePolicy = { rules: [rule({ name: `a${'b'.repeat(1024)}` })] }),
    field: 'spec.podFailurePolicy.rules[0].name',
    type: 'FieldValueInvalid',
    message: 'must be no more than',
  },
  {
    constraint: 'successPolicy.rules required',
    change: (job) => (job.spec.successPolicy = {}),
    field: 'spec.successPolicy.rules',
    type: 'FieldValueRequired',
    message: 'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified',
  },
  {
    constraint: 'successPolicy.rules at most 1000',
    change: (job) => (job.spec.successPolicy = { rules: range(1001).map(() => ({ succeededCount: 1 })) }),
    field: 'spec.successPolicy.rules',
    type: 'FieldValueTooMany',
    message: 'spec.successPolicy.rules: Too many: 1001: must have at most 20 items',
  },
  {
    constraint: 'succeededIndexes at most 1 MiB (formerly refused at ingest over 64 KiB)',
    change: (job) => (job.spec.successPolicy = { rules: [{ succeededIndexes: '0,'.repeat(40_000) + '1' }] }),
    field: 'spec.successPolicy.rules[0].succeededIndexes',
    type: 'FieldValueTooLong',
    message: 'spec.successPolicy.rules[0].succeededIndexes: Too long: must have at most 65536 bytes',
  },
];

describe('a Job spec the API server refuses gets upstream\'s error, never a parse error', () => {
  it.each(SPEC_CASES)('$constraint', ({ change, field, type, message }) => {
    // given a valid Job with one constraint tripped
    const job = validJob() as RawJob;
    change(job);
    // when it arrives at ingest
    const parsed = parseInbound(envelope('Job Observed', job));
    // then ingest accepts it, and validation answers with upstream's field, type and message
    expect(parsed.ok ? 'accepted' : parsed.errors).toBe('accepted');
    const observed = parsed.ok ? (parsed.targets[0]?.entry.body as Observation | undefined) : undefined;
    if (observed?.type !== 'JobObserved') return;
    const errors = validateJob(observed.job, GATES);
    const error = errors.find((e) => e.field === field && e.type === type);
    expect(error, JSON.stringify(errors.map((e) => e.message))).toBeDefined();
    expect(error?.message).toContain(message);
  });
});

interface MetaCase {
  readonly constraint: string;
  readonly metadata: Record<string, unknown>;
  readonly path: string;
  readonly message: string;
}

const META_CASES: MetaCase[] = [
  { constraint: 'name required (min 1)', metadata: { name: '' }, path: 'metadata.name', message: 'metadata.name: Required value: name or generateName is required' },
  { constraint: 'name absent', metadata: { name: undefined }, path: 'metadata.name', message: 'metadata.name: Required value: name or generateName is required' },
  {
    constraint: 'name at most 253',
    metadata: { name: 'a'.repeat(254) },
    path: 'metadata.name',
    message: `metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`,
  },
  {
    constraint: 'name with control characters',
    metadata: { name: 'a\u0000b\u001b[31m' },
    path: 'metadata.name',
    message:
      "metadata.name: Invalid value: \"a\\x00b\\x1b[31m\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  },
  {
    constraint: 'namespace at most 63',
    metadata: { namespace: 'n'.repeat(64) },
    path: 'metadata.namespace',
    message: `metadata.namespace: Invalid value: "${'n'.repeat(64)}": must be no more than 63 characters`,
  },
  {
    constraint: 'namespace as a DNS-1123 label',
    metadata: { namespace: 'a.b' },
    path: 'metadata.namespace',
    message:
      "metadata.namespace: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  },
  {
    constraint: 'label keys at most 253',
    metadata: { labels: { [`${'p'.repeat(254)}/x`]: 'v' } },
    path: 'metadata.labels',
    message: 'prefix part must be no more than 253 characters',
  },
  {
    constraint: 'label values at most 65536',
    metadata: { labels: { team: 'v'.repeat(64) } },
    path: 'metadata.labels',
    message: `metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
  },
  {
    constraint: 'annotation keys as qualified names (case-insensitive)',
    metadata: { annotations: { 'Example.COM/Note': 'ok', 'bad key': 'x' } },
    path: 'metadata.annotations',
    message: 'metadata.annotations: Invalid value: "bad key": name part must consist of alphanumeric characters',
  },
  {
    constraint: 'owner reference kind required',
    metadata: { ownerReferences: [{ uid: 'u1', name: 'o', apiVersion: 'v1' }] },
    path: 'metadata.ownerReferences.kind',
    message: 'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
  },
  {
    constraint: 'owner reference uid required',
    metadata: { ownerReferences: [{ kind: 'Job', name: 'o', apiVersion: 'batch/v1' }] },
    path: 'metadata.ownerReferences.uid',
    message: 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
  },
  {
    constraint: 'finalizers as qualified names',
    metadata: { finalizers: ['no spaces allowed'] },
    path: 'metadata.finalizers',
    message: 'metadata.finalizers: Invalid value: "no spaces allowed"',
  },
];

describe('metadata the API server refuses is refused at ingest, in upstream\'s words, and nothing is stored', () => {
  for (const kind of ['Job', 'JobSet'] as const) {
    it.each(META_CASES)(`${kind}: $constraint`, ({ metadata, path, message }) => {
      // given a valid object whose metadata trips one constraint
      const object =
        kind === 'Job'
          ? { ...validJob(), metadata: { ...validJob().metadata, ...metadata } }
          : { metadata: { name: 'js', namespace: 'ns', uid: 'js-uid', ...metadata }, spec: { replicatedJobs: [] } };
      // when it arrives at ingest
      const parsed = parseInbound(envelope(`${kind} Observed`, object));
      // then it is refused with the path and upstream's message
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      const error = parsed.errors.find((e) => e.path === `detail.object.${path}`);
      expect(error, JSON.stringify(parsed.errors)).toBeDefined();
      expect(error?.message).toContain(message);
    });
  }

  it('annotations over 256 KiB in all are Too long, as upstream', async () => {
    const { validateObjectMeta } = await import('../../../shared/job/validation/object-meta.ts');
    const errors = validateObjectMeta({ name: 'a', annotations: { a: 'x'.repeat(200 * 1024), b: 'y'.repeat(60 * 1024) } });
    expect(errors.map((e) => e.message)).toEqual(['metadata.annotations: Too long: must have at most 262144 bytes']);
  });

  it('a Pod named with a NUL and a terminal escape is refused', () => {
    const pod = {
      metadata: { name: 'a\u0000b\u001b[31m', namespace: 'ns', uid: 'p1', ownerReferences: [{ kind: 'Job', name: 'myjob', uid: 'job-uid', controller: true }] },
    };
    const parsed = parseInbound(envelope('Pod Observed', pod));
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.path)).toEqual(['detail.object.metadata.name']);
  });
});

interface JobSetCase {
  readonly constraint: string;
  readonly spec: Record<string, unknown>;
  readonly field: string;
  readonly type: string;
  readonly detail: string;
}

const rjob = { name: 'w', template: { spec: {} } };
const JOBSET_CASES: JobSetCase[] = [
  { constraint: 'failurePolicy.rules[].action required', spec: { replicatedJobs: [rjob], failurePolicy: { rules: [{}] } }, field: 'spec.failurePolicy.rules[0].action', type: 'FieldValueNotSupported', detail: 'supported values: "FailJobSet", "RestartJobSet", "RestartJobSetAndIgnoreMaxRestarts", "RestartJob", "RestartJobAndIgnoreMaxRestarts"' },
  { constraint: 'successPolicy.operator required', spec: { replicatedJobs: [rjob], successPolicy: {} }, field: 'spec.successPolicy.operator', type: 'FieldValueNotSupported', detail: 'supported values: "All", "Any"' },
  { constraint: 'startupPolicy.startupPolicyOrder required', spec: { replicatedJobs: [rjob], startupPolicy: {} }, field: 'spec.startupPolicy.startupPolicyOrder', type: 'FieldValueNotSupported', detail: 'supported values: "AnyOrder", "InOrder"' },
  { constraint: 'network.subdomain at most 1024', spec: { replicatedJobs: [rjob], network: { subdomain: 'a'.repeat(1025) } }, field: 'spec.network.subdomain', type: 'FieldValueInvalid', detail: 'must be no more than 253 characters' },
  {
    constraint: 'failurePolicy.rules at most 1024',
    spec: { replicatedJobs: [rjob], failurePolicy: { rules: range(1025).map((i) => ({ name: `r${i}`, action: 'Bogus' })) } },
    field: 'spec.failurePolicy.rules[1024].action',
    type: 'FieldValueNotSupported',
    detail: 'supported values:',
  },
  {
    constraint: 'replicatedJobs at most 1024 (and names required)',
    spec: { replicatedJobs: [...range(1025).map((i) => ({ name: `r${i}`, template: { spec: {} } })), { name: 'r1', template: { spec: {} } }] },
    field: 'spec.replicatedJobs[1025]',
    type: 'FieldValueDuplicate',
    detail: '',
  },
];

describe('a JobSet spec admission refuses gets upstream\'s error, never a parse error', () => {
  it.each(JOBSET_CASES)('$constraint', ({ spec, field, type, detail }) => {
    const parsed = parseInbound(envelope('JobSet Observed', { metadata: { name: 'js', namespace: 'ns', uid: 'js-uid' }, spec }));
    expect(parsed.ok ? 'accepted' : parsed.errors).toBe('accepted');
    const jobSet = JobSetSchema.parse({ metadata: { name: 'js', namespace: 'ns', uid: 'js-uid' }, spec });
    const errors = validateJobSet(defaultJobSet(jobSet));
    const error = errors.find((e) => e.field === field && e.type === type);
    expect(error, JSON.stringify(errors.slice(0, 5))).toBeDefined();
    expect(error?.detail).toContain(detail);
  });

  it('replicated jobs without a template, or a JobSet without a spec, parse as Go zero values', () => {
    expect(JobSetSchema.safeParse({ metadata: { name: 'js' }, spec: { replicatedJobs: [{ name: 'w' }] } }).success).toBe(true);
    expect(JobSetSchema.safeParse({ metadata: { name: 'js' } }).success).toBe(true);
  });
});

/** Every length, count or presence constraint the input schema still has, as `path keyword`. */
function constraints(schema: z.ZodType): string[] {
  const found: string[] = [];
  const walk = (node: any, path: string) => {
    if (node === null || typeof node !== 'object') return;
    for (const keyword of ['maxItems', 'minItems', 'maxLength', 'minLength']) {
      if (node[keyword] !== undefined) found.push(`${path} ${keyword}`);
    }
    if (Array.isArray(node.required) && node.required.length > 0) found.push(`${path} required=${node.required.join(',')}`);
    for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, `${path}.${key}`);
    if (node.items) walk(node.items, `${path}[]`);
    if (node.additionalProperties) walk(node.additionalProperties, `${path}{}`);
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const child of node[key] ?? []) walk(child, path);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), '');
  return found.sort();
}

describe('the schemas leave what upstream validates to validation', () => {
  // What remains is not spec or metadata validation: uids are assigned by the API server, and
  // conditions are status the cluster reports.
  const NOT_VALIDATION = ['.metadata.uid maxLength', '.status.conditions maxItems', '.status.conditions[] required=type,status', '.status.conditions[].type minLength', '.status.conditions[].type maxLength'];

  it('the Job schema has no length cap or required field of its own under metadata and spec', () => {
    expect(constraints(JobSchema).filter((c) => !NOT_VALIDATION.includes(c))).toEqual([]);
  });

  it('the JobSet schema has none either', () => {
    expect(constraints(JobSetSchema).filter((c) => !NOT_VALIDATION.includes(c))).toEqual([]);
  });
});
