import type { Decision, DecisionOf } from './decisions.ts';
import type { JobEvent } from './evolve.ts';

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

/**
 * The decisions of a cut-short sync (decided again, whole) not logged yet. A decision is known
 * by its id, which the sync's position and its place among the sync's decisions give, whatever
 * its pages. A termination whose first pages are logged keeps its id for the rest of its pods,
 * paged on from the next page number; with the page size the first attempt had, these are the
 * very pages it would have logged.
 */
export function restOfTermination(decisions: readonly Decision[], logged: readonly JobEvent[], pageBytes?: number): Decision[] {
  const loggedIds = new Set(logged.map((event) => event.eventId));
  return decisions.flatMap((decision): Decision[] => {
    if (!loggedIds.has(decision.eventId)) return pageDecisions([decision], pageBytes);
    if (decision.type !== 'PodsTerminationRequested') return [];
    const pages = logged.filter((e): e is DecisionOf<'PodsTerminationRequested'> =>
      e.type === 'PodsTerminationRequested' && (e.eventId === decision.eventId || e.eventId.startsWith(`${decision.eventId}/page/`)));
    const requested = new Set(pages.flatMap((page) => page.pods.map((pod) => pod.uid)));
    const pods = decision.pods.filter((pod) => !requested.has(pod.uid));
    return pods.length === 0 ? [] : pageTermination({ ...decision, pods }, pageBytes, pages.length);
  });
}
