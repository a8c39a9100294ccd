import type { JobEvent } from '../job/evolve.ts';
import type { FoldConfig } from '../job/state.ts';
import { familyId, familyOf } from '../fleet/family.ts';
import { selectsJob, type FleetSelection } from '../fleet/selection.ts';
import { recordedOutcome, whatIfJob, WhatIfPatchError } from '../whatif/index.ts';
import { checkJob, mergeChecks, NO_CHECK, refuseJob, type ProposalCheck } from './check.ts';
import { jobEvidence, mergeEvidence, type FamilyEvidence } from './evidence.ts';
import { jobFacts, type JobRef } from './job-facts.ts';
import type { CheckPage, EvidencePage, WireProposal } from './walk.ts';

// One page of each pass, over the logs a call read (the query API's scan page, or any list of
// recorded Jobs): which of them the selection takes, and what they add. Pure: the route reads,
// these fold.

/** A Job's record as read: the cluster it ran in and its log, decoded, in seq order. */
export interface RecordedJob {
  readonly cluster: string;
  readonly log: readonly JobEvent[];
}

/** The mining pass: the finished Jobs the selection takes, as their families' evidence. */
export function evidencePage(jobs: readonly RecordedJob[], selection: FleetSelection, config: FoldConfig): Omit<EvidencePage, 'nextCursor'> {
  const evidence: FamilyEvidence[] = [];
  let read = 0;
  for (const { cluster, log } of jobs) {
    const first = firstJob(log);
    if (!first || !selectsJob(selection, first)) continue;
    const facts = jobFacts(log, config, cluster);
    if (!facts) continue;
    read += 1;
    evidence.push(jobEvidence(facts));
  }
  return { jobs: read, evidence: mergeEvidence([evidence]) };
}

/** The check pass: each finished Job of a family with proposals, refolded under each of them. */
export function checkPage(jobs: readonly RecordedJob[], selection: FleetSelection, proposals: readonly WireProposal[], config: FoldConfig): Omit<CheckPage, 'nextCursor'> {
  const byFamily = new Map<string, WireProposal[]>();
  for (const p of proposals) byFamily.set(p.family, [...(byFamily.get(p.family) ?? []), p]);
  const checks = new Map<string, ProposalCheck>();
  let read = 0;
  for (const { cluster, log } of jobs) {
    const first = firstJob(log);
    if (!first || !selectsJob(selection, first)) continue;
    const mine = byFamily.get(familyId(familyOf(first)));
    if (!mine || recordedOutcome(log).outcome === 'Running') continue;
    read += 1;
    const ref: JobRef = { cluster, namespace: first.metadata.namespace ?? 'default', name: first.metadata.name, uid: first.metadata.uid ?? '' };
    for (const proposal of mine) {
      const check = checks.get(proposal.key) ?? NO_CHECK;
      checks.set(proposal.key, checkOne(check, ref, log, proposal, config));
    }
  }
  return { jobs: read, checks: [...checks].map(([proposal, check]) => ({ proposal, check })) };
}

function checkOne(check: ProposalCheck, job: JobRef, log: readonly JobEvent[], proposal: WireProposal, config: FoldConfig): ProposalCheck {
  try {
    return checkJob(check, job, whatIfJob({ log, config, patch: proposal.patch }));
  } catch (error) {
    if (error instanceof WhatIfPatchError) return refuseJob(check, job, error.message);
    throw error;
  }
}

const firstJob = (log: readonly JobEvent[]) => {
  const first = log.find((e) => e.type === 'JobObserved');
  return first?.type === 'JobObserved' ? first.job : undefined;
};

export { mergeChecks };
