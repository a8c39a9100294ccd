import { describeGeneratedOrders } from './generated-population.ts';
import { ttlHistoryArb } from './generated-histories.ts';

// Issue 21 for JobSets with `ttlSecondsAfterFinished` (generated-histories.ts `ttlHistoryArb`):
// the cluster deletes finished Jobs (its TTL controller) and the finished JobSet (its own
// controller: the deletion mark, the Jobs, the JobSet), so deletions of Jobs that finished, the
// mark and the JobSet's deletion reach the log in any order beside the finishes they follow. The
// outcome must stand, whatever arrives first. Floors in ttl-orders.known.json.
describeGeneratedOrders('generated JobSet history with ttlSecondsAfterFinished', ttlHistoryArb, new URL('./ttl-orders.known.json', import.meta.url));
