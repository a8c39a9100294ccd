import fc from 'fast-check';
import { describeOrders } from '../order-floors.ts';
import { measureJobSetOrders } from './causal-orders.ts';
import { messagePatternHistoryArb, playHistory } from './generated-histories.ts';

// Issue 21 for JobSets whose failure policy rules match the failed Job's message too
// (`onJobFailureMessagePatterns`, generated-histories.ts `messagePatternHistoryArb`): the rule a
// failure matches, so whether the JobSet fails, restarts or restarts without counting, turns on
// the message as well as the reason. Same measure as generated-orders.property.spec.ts (fixed
// seeds; floors in message-pattern-orders.known.json).
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

describeOrders(
  'generated JobSet history with message-pattern rules',
  fc.sample(messagePatternHistoryArb, { seed: SEED, numRuns: HISTORIES }).map(({ jobSet, steps }, n) => playHistory(`history-${n}`, jobSet, steps)),
  ORDERS,
  new URL('./message-pattern-orders.known.json', import.meta.url),
  (scenario) => measureJobSetOrders(scenario, { orders: ORDERS, seed: SEED }),
);
