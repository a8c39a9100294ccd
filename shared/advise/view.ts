import { selectionText, type FleetSelection, type SelectionText } from '../fleet/selection.ts';
import type { Advice, CheckedProposal, FamilyAdvice } from './advice.ts';
import type { HarmedJob, ProposalCheck } from './check.ts';
import type { JobRef } from './job-facts.ts';
import { toYaml } from './patch-yaml.ts';

// The advice as `jobfold advise -o json|yaml` prints it and the console shows it: one shape,
// built here once. Pod time in hours; each patch also as YAML, and where the family is a
// CronJob's, the kubectl command that applies it to the CronJob's Job template.

export interface AdviceView {
  readonly selection: SelectionText;
  /** Finished Jobs read, families they make, proposals checked. */
  readonly jobs: number;
  readonly families: number;
  readonly proposals: number;
  readonly advice: readonly FamilyView[];
}

export interface FamilyView {
  readonly family: { readonly namespace: string; readonly key: string; readonly by: string; readonly clusters: readonly string[] };
  readonly jobs: { readonly finished: number; readonly succeeded: number; readonly failed: number; readonly podHours: number };
  readonly recommended: ProposalView | null;
  readonly verdict?: string;
  readonly proposals: readonly ProposalView[];
}

export interface ProposalView {
  readonly kind: string;
  readonly title: string;
  readonly harmless: boolean;
  readonly podHoursSaved: number;
  readonly mined: readonly string[];
  readonly patch: { readonly spec: Readonly<Record<string, unknown>> };
  readonly yaml: string;
  /** `kubectl patch cronjob …`: the patch applied to the CronJob's Job template (CronJob families). */
  readonly apply?: string;
  readonly reproduce: string;
  readonly check: ProposalCheck & { readonly replayed: number };
}

export function adviceView(advice: Advice, selection: FleetSelection): AdviceView {
  return {
    selection: selectionText(selection),
    jobs: advice.jobs,
    families: advice.families.length,
    proposals: advice.proposals,
    advice: advice.families.map(familyView),
  };
}

function familyView(f: FamilyAdvice): FamilyView {
  const e = f.evidence;
  const proposals = f.proposals.map((p) => proposalView(f, p));
  const recommended = f.recommended ? (proposals[f.proposals.indexOf(f.recommended)] ?? null) : null;
  return {
    family: { namespace: e.family.namespace, key: e.family.key, by: e.family.by, clusters: e.clusters },
    jobs: { finished: e.jobs, succeeded: e.succeeded, failed: e.failed, podHours: hours(e.podSeconds) },
    recommended,
    ...(f.verdict ? { verdict: f.verdict } : {}),
    proposals,
  };
}

function proposalView(f: FamilyAdvice, p: CheckedProposal): ProposalView {
  const family = f.evidence.family;
  const cronJob = family.by === 'cronjob' ? family.key.slice('cronjob:'.length) : undefined;
  const apply = cronJob
    ? `kubectl patch cronjob ${cronJob} -n ${family.namespace} --type merge -p '${JSON.stringify({ spec: { jobTemplate: p.patch } }).replaceAll("'", `'\\''`)}'`
    : undefined;
  const check = p.check;
  return {
    kind: p.kind,
    title: p.title,
    harmless: p.harmless,
    podHoursSaved: hours(check.podSecondsSaved),
    mined: p.mined,
    patch: p.patch,
    yaml: toYaml(p.patch),
    ...(apply ? { apply } : {}),
    reproduce: p.reproduce,
    check: { ...check, replayed: check.jobs - check.notReplayable.length - check.refused.length },
  };
}

/** Pod-hours as words show them: two significant digits below one, two decimals above. */
export function podHoursText(value: number): string {
  if (value === 0) return '0';
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

/** What a harm means for its Job, in words. */
export function harmText(h: HarmedJob): string {
  switch (h.harm) {
    case 'fails':
      return 'a success would fail';
    case 'later':
      return 'decided later';
    case 'unknown':
      return h.recorded.startsWith('Failed') ? 'its failure would not be caught where it was' : 'past the evidence before its outcome';
  }
}

/** Pod-hours to the hundredth of a second's worth (small sample fleets still show a figure). */
export const hours = (seconds: number): number => Math.round((seconds / 3600) * 1e6) / 1e6;

export const jobName = (job: JobRef): string => `${job.cluster}/${job.namespace}/${job.name}`;
