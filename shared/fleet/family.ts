import type { Job } from '../k8s/job.ts';

// A family is the Jobs of one workload: runs of one CronJob, or Jobs a pipeline creates over and
// over under one name. Families are what `jobfold advise` mines and checks policies over, and
// what `jobfold whatif --fleet --family` selects. A Job's family, the first that applies:
//
// 1. `cronjob:NAME` — its controller ownerReference is a CronJob;
// 2. `prefix:STEM-` — its name ends in a generated suffix (up to two of them): a run number or
//    timestamp of 4 or more digits, a generateName suffix (5 characters of Kubernetes' alphabet,
//    `bcdfghjklmnpqrstvwxz2456789`), or a hash of 8 or more hex digits with a digit in it;
//    the family holds every Job of that stem;
// 3. `labels:K=V,…` — the Job's labels, leaving out the ones the Job controller or a
//    CronJob sets per run (`batch.kubernetes.io/*`, `controller-uid`, `job-name`), if any remain;
// 4. `job:NAME` — the Job's own name: the same Job deleted and created again over time.
//
// A family lives in one namespace and spans clusters: the same CronJob deployed to every cluster
// of a fleet is one workload, and one manifest to patch.

export type FamilyBy = 'cronjob' | 'prefix' | 'labels' | 'job';

export interface Family {
  readonly namespace: string;
  readonly by: FamilyBy;
  /** `cronjob:NAME`, `prefix:STEM-`, `labels:K=V,…` or `job:NAME`, as `--family` takes it. */
  readonly key: string;
}

const GENERATED_SUFFIX = [/^\d{4,}$/, /^[bcdfghjklmnpqrstvwxz2456789]{5}$/, /^(?=[0-9a-f]*\d)[0-9a-f]{8,}$/];
const PER_RUN_LABELS = [/^batch\.kubernetes\.io\//, /^controller-uid$/, /^job-name$/];

export function familyOf(job: Job): Family {
  const metadata = job.metadata;
  const namespace = metadata.namespace ?? 'default';
  const owner = metadata.ownerReferences?.find((o) => o.controller === true && o.kind === 'CronJob' && o.name);
  if (owner?.name) return { namespace, by: 'cronjob', key: `cronjob:${owner.name}` };
  const stem = nameStem(metadata.name);
  if (stem !== undefined) return { namespace, by: 'prefix', key: `prefix:${stem}` };
  const labels = Object.entries(metadata.labels ?? {})
    .filter(([k]) => !PER_RUN_LABELS.some((p) => p.test(k)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (labels.length > 0) return { namespace, by: 'labels', key: `labels:${labels.map(([k, v]) => `${k}=${v}`).join(',')}` };
  return { namespace, by: 'job', key: `job:${metadata.name}` };
}

/** `namespace/key`: one family across the fleet. */
export const familyId = (family: Pick<Family, 'namespace' | 'key'>): string => `${family.namespace}/${family.key}`;

/** A family key as `--family` takes it; undefined when it names none of the four kinds. */
export function isFamilyKey(text: string): boolean {
  return /^(cronjob|prefix|labels|job):./.test(text);
}

/** The name without its generated suffixes (`etl-28901234` → `etl-`); undefined if it has none. */
export function nameStem(name: string): string | undefined {
  let stem = name;
  for (let i = 0; i < 2; i++) {
    const dash = stem.lastIndexOf('-', stem.length - 2);
    if (dash <= 0) break;
    const suffix = stem.slice(dash + 1).replace(/-$/, '');
    if (!GENERATED_SUFFIX.some((p) => p.test(suffix))) break;
    stem = stem.slice(0, dash + 1);
  }
  return stem === name ? undefined : stem;
}
