import { describeGeneratedOrders } from './generated-population.ts';
import { userDeleteHistoryArb } from './generated-histories.ts';

// Issue 21 for JobSets one of whose child Jobs a user deletes (generated-histories.ts
// `userDeleteHistoryArb`): the JobSet's controller creates it again, a new Job under the same
// name, so the deletion of one Job and the snapshots of the next (another uid) share a name.
// Floors in user-delete-orders.known.json.
describeGeneratedOrders('generated JobSet history with child Jobs a user deletes', userDeleteHistoryArb, new URL('./user-delete-orders.known.json', import.meta.url));
