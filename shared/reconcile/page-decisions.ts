import type { Decision, DecisionOf } from '../job/decisions.ts';

// A decision's size must not depend on the Job's: terminating 100,000 pods is one decision
// but 100,000 pod references (≈ 10 MB), far above one DynamoDB item (400 KB). The decision is
// logged as pages of at most PAGE_BYTES of pod references each; page n ≥ 1 carries `page: n`
// and the eventId `<first page's eventId>/page/<n>`, and the fold adds its pods to the
// deletions the first page expects, so the pages fold exactly as the whole decision would.

/** Pod references per page, by their JSON size: well under the 350 KB entry body limit. */
export const PAGE_BYTES = 128 * 1024;

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** The decisions with every PodsTerminationRequested above PAGE_BYTES split into pages. */
export function pageDecisions(decisions: readonly Decision[], pageBytes = PAGE_BYTES): Decision[] {
  return decisions.flatMap((decision) =>
    decision.type === 'PodsTerminationRequested' ? pageTermination(decision, pageBytes) : [decision],
  );
}

/**
 * The pages of one termination decision. `from` numbers the first page produced: a decision
 * whose pages 0…from-1 are logged already gets the rest of its pages under the same ids.
 */
export function pageTermination(decision: DecisionOf<'PodsTerminationRequested'>, pageBytes = PAGE_BYTES, from = 0): Decision[] {
  const pages: DecisionOf<'PodsTerminationRequested'>[] = [];
  let pods: typeof decision.pods = [];
  let bytes = 0;
  const flush = () => {
    const n = from + pages.length;
    pages.push(n === 0 ? { ...decision, pods } : { ...decision, eventId: `${decision.eventId}/page/${n}`, pods, page: n });
    pods = [];
    bytes = 0;
  };
  for (const pod of decision.pods) {
    const size = jsonBytes(pod) + 1;
    if (pods.length > 0 && bytes + size > pageBytes) flush();
    pods.push(pod);
    bytes += size;
  }
  flush();
  return pages;
}
