import type { AuditEntry } from '../../../shared/audit/audit-format.ts';
import { FOLD_VERSION } from '../../../shared/audit/fold-version.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { chainEntries, GENESIS_HASH } from '../../../shared/log/hash-chain.ts';
import { aJob, at } from '../../support/builders.ts';
import { batches, recordHistory } from '../whatif/record.ts';
import { pod } from '../whatif/pods.ts';

/**
 * A Job's log as the store keeps it: entries with their seq and recordedAt, decisions with what
 * they read (the head before them and its hash), every entry chained. p1 fails, p2 succeeds.
 */
export function auditLog(foldVersion = FOLD_VERSION): AuditEntry[] {
  const log = recordHistory(
    aJob({ completions: 1, parallelism: 1, backoffLimit: 1 }),
    batches([at(10), [pod('p1', 'Running', 10)]], [at(20), [pod('p1', 'Failed', 20)]], [at(30), [pod('p2', 'Running', 30)]], [at(60), [pod('p2', 'Succeeded', 60)]]),
  );
  const chained: AuditEntry[] = [];
  let readHead = 0;
  for (const event of log) {
    const { seq, ...body } = event as JobEvent & { seq: number };
    const decision = 'at' in event;
    if (!decision) readHead = seq;
    const entry = {
      seq,
      eventId: event.eventId,
      type: event.type,
      observedAt: decision ? event.at : event.observedAt,
      recordedAt: at(seq),
      body: decision ? { ...body, read: { head: readHead, foldVersion, gates: JOBFOLD_DEFAULT_GATES } } : body,
    };
    const [hashed] = chainEntries(chained.at(-1)?.hash ?? GENESIS_HASH, [entry]);
    // What the decision read: the chain hash of the entry at its head.
    if (decision) (hashed!.body as { read: { chainHead?: string } }).read.chainHead = chained.find((e) => e.seq === readHead)?.hash;
    chained.push(decision ? chainEntries(chained.at(-1)?.hash ?? GENESIS_HASH, [{ ...entry, body: hashed!.body }])[0]! : hashed!);
  }
  return chained;
}
