import { entryEvent } from '../job/log-codec.ts';
import { decide } from '../job/decide.ts';
import type { Decision } from '../job/decisions.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import { JOBFOLD_DEFAULT_GATES, type FeatureGates } from '../k8s/feature-gates.ts';
import { initialState } from '../job/state.ts';
import { canonicalJson } from '../log/canonical-json.ts';
import type { AuditEntry } from './audit-format.ts';
import type { DecisionRead } from './decision-read.ts';
import type { Finding } from './findings.ts';
import { FOLD_VERSION } from './fold-version.ts';

type Recorded = { readonly entry: AuditEntry; readonly decision: Decision };

/**
 * Refolds a log and checks every recorded reconcile: the fold, given everything logged before
 * it, must decide exactly what was recorded, at the recorded time. A reconcile it decides
 * differently is `notReproduced` when the recorded fold version is this one (the record or the
 * fold was changed), `foldVersionChanged` when a different version decided it. A decision
 * whose recorded chain head is not the hash at the position it read is a `headMismatch`.
 * The recorded decisions are folded either way: the record stays the truth for what follows.
 */
export function verifyDecisions(entries: readonly AuditEntry[], gates: FeatureGates = firstGates(entries)): Finding[] {
  const findings: Finding[] = [];
  const hashAt = new Map(entries.map((e) => [e.seq, e.hash]));
  const state = initialState({ gates, validateSpecs: true });
  let group: Recorded[] = [];
  const check = () => {
    if (group.length === 0) return;
    const first = group[0] as Recorded;
    const refolded = decide(state, first.decision.at).decisions;
    const recorded = group.map((r) => r.decision);
    if (comparable(refolded) !== comparable(recorded)) {
      const read = readOf(first.entry);
      const base = { seq: first.entry.seq, eventId: first.entry.eventId, recorded: describe(recorded), refolded: describe(refolded) };
      findings.push(
        read?.foldVersion !== undefined && read.foldVersion !== FOLD_VERSION
          ? { kind: 'foldVersionChanged', ...base, foldVersion: read.foldVersion, currentVersion: FOLD_VERSION }
          : { kind: 'notReproduced', ...base, foldVersion: read?.foldVersion },
      );
    }
    for (const { decision } of group) evolve(state, decision);
    group = [];
  };
  for (const entry of entries) {
    let event: JobEvent;
    try {
      event = entryEvent(entry);
    } catch (error) {
      findings.push({ kind: 'unreadable', seq: entry.seq, message: (error as Error).message });
      continue;
    }
    // An observation, or the record of one the writer refused (ObservationRefused): no reconcile.
    if (!('at' in event) || event.type === 'ObservationRefused') {
      check();
      evolve(state, event);
      continue;
    }
    if (startsReconcile(event, group)) check();
    group.push({ entry, decision: event });
    const read = readOf(entry);
    if (read?.chainHead !== undefined && hashAt.get(read.head) !== read.chainHead) {
      findings.push({ kind: 'headMismatch', seq: entry.seq, eventId: entry.eventId, readHead: read.head });
    }
  }
  check();
  return findings;
}

/** A reconcile's decisions share a time; their ids count up from 0 (`<uid>/<position>/<i>`). */
function startsReconcile(decision: Decision, group: readonly Recorded[]): boolean {
  const previous = group.at(-1)?.decision;
  if (!previous) return false;
  return previous.at !== decision.at || decision.eventId.endsWith('/0');
}

function readOf(entry: AuditEntry): DecisionRead | undefined {
  const read = (entry.body as { read?: DecisionRead } | null)?.read;
  return typeof read === 'object' && read !== null ? read : undefined;
}

/** The gates the first decision recorded; jobfold's defaults for a log without any. */
function firstGates(entries: readonly AuditEntry[]): FeatureGates {
  for (const entry of entries) {
    const gates = readOf(entry)?.gates;
    if (gates) return { ...JOBFOLD_DEFAULT_GATES, ...gates };
  }
  return JOBFOLD_DEFAULT_GATES;
}

/**
 * Decisions as compared: without their log position (seq) or what they read, and with a
 * decision logged in pages (`page` 1, 2, … continuing the first, page-decisions.ts) put back together.
 */
function comparable(decisions: readonly Decision[]): string {
  const merged: Record<string, unknown>[] = [];
  for (const decision of decisions) {
    const { seq: _seq, read: _read, page, ...rest } = decision as Decision & { read?: unknown; page?: number };
    const previous = merged.at(-1);
    if (page !== undefined && page >= 1 && previous && Array.isArray(previous['pods']) && Array.isArray(rest['pods' as keyof typeof rest])) {
      previous['pods'] = [...(previous['pods'] as unknown[]), ...(rest as { pods: unknown[] }).pods];
      continue;
    }
    merged.push({ ...rest, eventId: decision.eventId.replace(/\/\d+$/, '') });
  }
  return canonicalJson(merged);
}

function describe(decisions: readonly Decision[]): string {
  if (decisions.length === 0) return 'nothing';
  return decisions
    .map((d) => {
      switch (d.type) {
        case 'JobConditionChanged':
          return `${d.condition.type}=${d.condition.status} (${d.condition.reason})`;
        case 'PodsTerminationRequested':
          return `terminate ${d.pods.map((p) => p.name).join(', ')}`;
        case 'PodsTerminationExpired':
          return `termination unseen, active again: ${d.pods.map((p) => p.name).join(', ')}`;
        case 'PodCreationsRequested':
          return `create ${d.count}`;
        case 'StartTimeSet':
          return `startTime ${d.startTime}`;
        default:
          return d.type;
      }
    })
    .join('; ');
}
