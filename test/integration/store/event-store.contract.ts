import { describe } from 'vitest';
import type { EventStoreFactory } from './contract/builders.ts';
import { describeChangeFeedContract } from './contract/change-feed.contract.ts';
import { describeCommitContract } from './contract/commit.contract.ts';
import { describeLogContract } from './contract/log.contract.ts';
import { describePageContract } from './contract/page.contract.ts';
import { describeOutboxContract } from './contract/outbox.contract.ts';
import { describePodArchiveContract } from './contract/pod-archive.contract.ts';
import { describeProjectionContract } from './contract/projection.contract.ts';
import { describeSnapshotContract } from './contract/snapshot.contract.ts';

export type { EventStoreFactory } from './contract/builders.ts';

/**
 * The behaviour every EventStore shares (shared/log/event-store.ts), with the PodArchive the
 * reconciler needs beside it (shared/log/pod-archive.ts) and the change feed the Kubernetes
 * watch follows (shared/log/change-feed.ts). `factory` returns a
 * fresh, empty store for each test, so tests never see each other's streams or summaries.
 * Each part calls `factory` in a beforeEach inside its own describe: a hook at the top of a part
 * would run for every test of every part (on DynamoDB Local, seven tables per test).
 */
export function describeEventStoreContract(name: string, factory: EventStoreFactory): void {
  describe(`${name} event store`, () => {
    describeLogContract(factory);
    describeCommitContract(factory);
    describePageContract(factory);
    describeSnapshotContract(factory);
    describeOutboxContract(factory);
    describeProjectionContract(factory);
    describePodArchiveContract(factory);
    describeChangeFeedContract(factory);
  });
}
