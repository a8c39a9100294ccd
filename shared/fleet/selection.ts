import type { JobSummary } from '../log/event-store.ts';
import type { Job } from '../k8s/job.ts';
import { familyOf, isFamilyKey } from './family.ts';
import { formatLabelSelector, matchesLabels, parseLabelSelector, type LabelSelector } from './label-selector.ts';

/**
 * Which stored Jobs a fleet-wide read takes (`jobfold advise`, `jobfold whatif --fleet`): the
 * summary's cluster, namespace and creation time, then the Job as first observed — its labels,
 * name, owner and family. Every field left out selects all.
 */
export interface FleetSelection {
  readonly cluster?: string;
  readonly namespace?: string;
  /** Created at or after this time (RFC 3339). */
  readonly since?: string;
  readonly selector?: LabelSelector;
  readonly namePrefix?: string;
  /** The controller ownerReference, e.g. `{ kind: 'CronJob', name: 'nightly-etl' }`. */
  readonly owner?: { readonly kind: string; readonly name: string };
  /** A family key (shared/fleet/family.ts). */
  readonly family?: string;
}

/** What the summary alone decides (before the log is read). */
export function selectsSummary(selection: FleetSelection, summary: JobSummary): boolean {
  if (selection.cluster !== undefined && summary.clusterId !== selection.cluster) return false;
  if (selection.namespace !== undefined && summary.namespace !== selection.namespace) return false;
  if (selection.since !== undefined && Date.parse(summary.createdAt) < Date.parse(selection.since)) return false;
  return true;
}

/** What the Job, as first observed, decides. */
export function selectsJob(selection: FleetSelection, job: Job): boolean {
  const metadata = job.metadata;
  if (selection.selector && !matchesLabels(selection.selector, metadata.labels)) return false;
  if (selection.namePrefix !== undefined && !metadata.name.startsWith(selection.namePrefix)) return false;
  const owner = selection.owner;
  if (owner && !metadata.ownerReferences?.some((o) => o.controller === true && o.kind === owner.kind && o.name === owner.name)) return false;
  if (selection.family !== undefined && familyOf(job).key !== selection.family) return false;
  return true;
}

/** `CronJob/NAME` (any `Kind/NAME`); undefined when the text is not of that form. */
export function parseOwner(text: string): { kind: string; name: string } | undefined {
  const match = /^([A-Z][A-Za-z0-9]*)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/.exec(text);
  return match ? { kind: match[1] as string, name: match[2] as string } : undefined;
}

/** A selection as the API and the command line take it: every field text. */
export interface SelectionText {
  readonly cluster?: string;
  readonly namespace?: string;
  readonly since?: string;
  readonly selector?: string;
  readonly namePrefix?: string;
  readonly owner?: string;
  readonly family?: string;
}

/** A field of a selection that does not parse, named as the caller spells it. */
export class SelectionError extends Error {
  override name = 'SelectionError';
  readonly field: keyof SelectionText;

  constructor(field: keyof SelectionText, message: string) {
    super(message);
    this.field = field;
  }
}

export function parseSelection(text: SelectionText): FleetSelection {
  let selector: LabelSelector | undefined;
  if (text.selector !== undefined) {
    try {
      selector = parseLabelSelector(text.selector);
    } catch (error) {
      throw new SelectionError('selector', (error as Error).message);
    }
  }
  const owner = text.owner === undefined ? undefined : parseOwner(text.owner);
  if (text.owner !== undefined && !owner) throw new SelectionError('owner', `${JSON.stringify(text.owner)}: expected KIND/NAME, e.g. CronJob/nightly-etl`);
  if (text.family !== undefined && !isFamilyKey(text.family)) {
    throw new SelectionError('family', `${JSON.stringify(text.family)}: expected cronjob:NAME, prefix:STEM-, labels:K=V,… or job:NAME`);
  }
  return {
    ...(text.cluster !== undefined ? { cluster: text.cluster } : {}),
    ...(text.namespace !== undefined ? { namespace: text.namespace } : {}),
    ...(text.since !== undefined ? { since: text.since } : {}),
    ...(selector ? { selector } : {}),
    ...(text.namePrefix !== undefined ? { namePrefix: text.namePrefix } : {}),
    ...(owner ? { owner } : {}),
    ...(text.family !== undefined ? { family: text.family } : {}),
  };
}

/** The selection as text again (what a reproducing command or a next call passes). */
export function selectionText(selection: FleetSelection): SelectionText {
  return {
    ...(selection.cluster !== undefined ? { cluster: selection.cluster } : {}),
    ...(selection.namespace !== undefined ? { namespace: selection.namespace } : {}),
    ...(selection.since !== undefined ? { since: selection.since } : {}),
    ...(selection.selector ? { selector: formatLabelSelector(selection.selector) } : {}),
    ...(selection.namePrefix !== undefined ? { namePrefix: selection.namePrefix } : {}),
    ...(selection.owner ? { owner: `${selection.owner.kind}/${selection.owner.name}` } : {}),
    ...(selection.family !== undefined ? { family: selection.family } : {}),
  };
}
