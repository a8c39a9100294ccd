import { parseSelection, type SelectionText } from '../fleet/selection.ts';
import { advise, proposalKey, type Advice } from './advice.ts';
import { mergeChecks, type ProposalCheck } from './check.ts';
import { mergeEvidence, type FamilyEvidence } from './evidence.ts';
import { mine, type Proposal } from './mine.ts';
import type { AdvicePort } from '../ports.ts';

// The two passes of an advice over the API, for any client (the CLI, the console): the mining
// pass pages POST /v1/advise/evidence and merges the families' evidence; the proposals are
// mined from it here; the check pass pages POST /v1/advise/check with them and merges each
// proposal's check. Each pass reads the logs by a parallel scan, one call chain per segment,
// so memory holds the evidence and the checks, never the logs. A call that fails fails the
// advice: advice from part of a family would claim what the rest might refute.

export interface EvidencePage {
  readonly jobs: number;
  readonly evidence: readonly FamilyEvidence[];
  readonly nextCursor?: string;
}

export interface CheckPage {
  /** Finished Jobs of the proposals' families read in this call. */
  readonly jobs: number;
  readonly checks: readonly { readonly proposal: string; readonly check: ProposalCheck }[];
  readonly nextCursor?: string;
}

export interface PagedCall {
  readonly segment: number;
  readonly segments: number;
  readonly cursor?: string;
}

/** A proposal as the check pass sends it: its key, its family, its patch. */
export interface WireProposal {
  readonly key: string;
  readonly family: string;
  readonly patch: Proposal['patch'];
}

export interface WalkOptions {
  readonly segments?: number;
  /** Called after every page: the pass and the Jobs read in it so far. */
  readonly progress?: (pass: 'mining' | 'checking', jobs: number) => void;
}

export const DEFAULT_SEGMENTS = 4;

export async function adviseOver(port: AdvicePort, selection: SelectionText, options: WalkOptions = {}): Promise<Advice> {
  const parsed = parseSelection(selection);
  const segments = options.segments ?? DEFAULT_SEGMENTS;
  let read = 0;
  const pages: FamilyEvidence[][] = [];
  await eachSegment(segments, async (segment) => {
    let cursor: string | undefined;
    do {
      const page = await port.evidencePage({ ...selection, segment, segments, ...(cursor ? { cursor } : {}) });
      pages.push([...page.evidence]);
      read += page.jobs;
      options.progress?.('mining', read);
      cursor = page.nextCursor;
    } while (cursor);
  });
  const evidence = mergeEvidence(pages);
  const proposals = evidence.flatMap(mine);
  const checks = new Map<string, ProposalCheck>();
  if (proposals.length > 0) {
    const wire = proposals.map((p) => ({ key: proposalKey(p), family: p.family, patch: p.patch }));
    let checked = 0;
    await eachSegment(segments, async (segment) => {
      let cursor: string | undefined;
      do {
        const page = await port.checkPage({ ...selection, proposals: wire, segment, segments, ...(cursor ? { cursor } : {}) });
        for (const { proposal, check } of page.checks) {
          const known = checks.get(proposal);
          checks.set(proposal, known ? mergeChecks(known, check) : check);
        }
        checked += page.jobs;
        options.progress?.('checking', checked);
        cursor = page.nextCursor;
      } while (cursor);
    });
  }
  return advise(evidence, proposals, checks, parsed);
}

/** Runs one call chain per segment side by side; the first failure fails the whole. */
async function eachSegment(segments: number, chain: (segment: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: segments }, (_, i) => chain(i)));
}
