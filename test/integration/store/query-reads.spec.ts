import { describe } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { describeQueryReadsContract } from './contract/query-reads.contract.ts';
import { storePerTest } from './local-table.ts';

// What the query routes read beside the entries (first-sighting marks, point reads), on both
// stores (a file of its own: the main contract suite is long enough).
describe('in-memory event store', () => describeQueryReadsContract(async () => new InMemoryEventStore()));

describe('DynamoDB event store on DynamoDB Local', () => describeQueryReadsContract(storePerTest()));
