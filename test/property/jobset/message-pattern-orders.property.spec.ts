import { describeGeneratedOrders } from './generated-population.ts';
import { messagePatternHistoryArb } from './generated-histories.ts';

// Issue 21 for JobSets whose failure policy rules match the failed Job's message too
// (`onJobFailureMessagePatterns`, generated-histories.ts `messagePatternHistoryArb`): the rule a
// failure matches, so whether the JobSet fails, restarts or restarts without counting, turns on
// the message as well as the reason. Floors in message-pattern-orders.known.json.
describeGeneratedOrders('generated JobSet history with message-pattern rules', messagePatternHistoryArb, new URL('./message-pattern-orders.known.json', import.meta.url));
