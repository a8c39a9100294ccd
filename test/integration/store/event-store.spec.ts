import { describe } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { describeEventStoreContract } from './event-store.contract.ts';
import { storePerTest } from './local-table.ts';

describeEventStoreContract('in-memory', async () => new InMemoryEventStore());

// A table per test keeps the fleet view and the outbox of one test out of the next; it is
// dropped after the test, so DynamoDB Local never holds more than one of them.
describe('on DynamoDB Local', () => describeEventStoreContract('DynamoDB', storePerTest()));
