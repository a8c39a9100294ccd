import type { FleetSelection } from '../fleet/selection.ts';
import { formatLabelSelector } from '../fleet/label-selector.ts';
import { NO_CHECK, type ProposalCheck } from './check.ts';
import { compare, type FamilyEvidence } from './evidence.ts';
import { PROPOSAL_KINDS, type Proposal } from './mine.ts';

// The advice: per family, the checked proposals ranked — harmless ones first, by pod-hours
// saved; a proposal that harms any Job after every harmless one, whatever it saves — and the
// patch to apply (the best harmless proposal that saves anything), with the what-if command
// that reproduces its figures. Families are ranked by what their patch saves.

export interface CheckedProposal extends Proposal {
  readonly check: ProposalCheck;
  /** No Job harmed, and at least one Job replayed exactly. */
  readonly harmless: boolean;
  /** `jobfold whatif --fleet …` over the family with this patch: the same figures. */
  readonly reproduce: string;
}

export interface FamilyAdvice {
  readonly evidence: FamilyEvidence;
  readonly proposals: readonly CheckedProposal[];
  /** The proposal to apply; undefined when none is harmless and saves something. */
  readonly recommended: CheckedProposal | undefined;
  /** Why nothing is recommended, or undefined. */
  readonly verdict: string | undefined;
}

export interface Advice {
  /** Finished Jobs read by the mining pass, and the families they make. */
  readonly jobs: number;
  readonly families: readonly FamilyAdvice[];
  readonly proposals: number;
}

/** `family/kind`: a proposal's key between the passes. */
export const proposalKey = (p: Pick<Proposal, 'family' | 'kind'>): string => `${p.family}/${p.kind}`;

export function advise(
  evidence: readonly FamilyEvidence[],
  proposals: readonly Proposal[],
  checks: ReadonlyMap<string, ProposalCheck>,
  selection: FleetSelection,
): Advice {
  const families = evidence.map((e) => familyAdvice(e, proposals.filter((p) => p.family === e.id), checks, selection));
  families.sort((a, b) => saved(b) - saved(a) || rank(a) - rank(b) || compare(a.evidence.id, b.evidence.id));
  return { jobs: evidence.reduce((n, e) => n + e.jobs, 0), families, proposals: proposals.length };
}

function familyAdvice(evidence: FamilyEvidence, proposals: readonly Proposal[], checks: ReadonlyMap<string, ProposalCheck>, selection: FleetSelection): FamilyAdvice {
  const checked = proposals.map((p): CheckedProposal => {
    const check = checks.get(proposalKey(p)) ?? NO_CHECK;
    const replayed = check.jobs - check.notReplayable.length - check.refused.length;
    return { ...p, check, harmless: check.harm.length === 0 && replayed > 0, reproduce: reproduceCommand(evidence, p, selection) };
  });
  checked.sort(byRank);
  const recommended = checked.find((p) => p.harmless && p.check.podSecondsSaved > 0);
  return { evidence, proposals: checked, recommended, verdict: recommended ? undefined : verdictOf(checked) };
}

/** Harmless before harmful; then more pod-hours saved; then fewer Jobs harmed; then the more targeted kind. */
function byRank(a: CheckedProposal, b: CheckedProposal): number {
  if (a.harmless !== b.harmless) return a.harmless ? -1 : 1;
  return (
    b.check.podSecondsSaved - a.check.podSecondsSaved ||
    a.check.harm.length - b.check.harm.length ||
    PROPOSAL_KINDS.indexOf(a.kind) - PROPOSAL_KINDS.indexOf(b.kind)
  );
}

function verdictOf(proposals: readonly CheckedProposal[]): string {
  if (proposals.length === 0) return 'nothing to propose: the record shows no failure, disruption, long run or leader pattern worth a policy';
  if (proposals.every((p) => !p.harmless && p.check.harm.length > 0)) return 'every candidate would harm a Job (listed below): nothing is proposed';
  if (proposals.every((p) => p.check.jobs - p.check.notReplayable.length - p.check.refused.length === 0)) return 'no Job of the family replays exactly: nothing can be claimed';
  return 'no harmless candidate saves pod time on the record: nothing is proposed';
}

const saved = (f: FamilyAdvice): number => f.recommended?.check.podSecondsSaved ?? 0;
const rank = (f: FamilyAdvice): number => (f.recommended ? 0 : f.proposals.length > 0 ? 1 : 2);

/**
 * The fleet what-if over exactly this family's finished Jobs with this patch (under the same
 * selection: an advice for one cluster is reproduced in that cluster).
 */
export function reproduceCommand(evidence: FamilyEvidence, proposal: Proposal, selection: FleetSelection): string {
  const args = ['npx jobfold whatif --fleet'];
  if (selection.cluster) args.push(`--cluster ${selection.cluster}`);
  args.push(`-n ${evidence.family.namespace}`, `--family ${shellQuote(evidence.family.key)}`);
  if (selection.selector && selection.selector.length > 0) args.push(`--selector ${shellQuote(formatLabelSelector(selection.selector))}`);
  if (selection.namePrefix !== undefined) args.push(`--name-prefix ${shellQuote(selection.namePrefix)}`);
  if (selection.owner) args.push(`--owner ${selection.owner.kind}/${selection.owner.name}`);
  if (selection.since) args.push(`--since ${selection.since}`);
  args.push('--finished', `--patch ${shellQuote(JSON.stringify(proposal.patch))}`);
  return args.join(' ');
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
