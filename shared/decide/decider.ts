import type { LogEntry, NewEntry, StreamId, SummaryUpdate } from '../log/event-store.ts';
import type { PodArchive } from '../log/pod-archive.ts';
import type { DecisionRead } from '../audit/decision-read.ts';
import type { OutboundEvent } from '../contract/outbound.ts';
import type { OutboxJob, TerminationPage } from '../outbox/outbox-page.ts';
import type { RefusedObservation } from './keep-news.ts';

// The decider a log is written with (Emmett's Decider, fmodel's Decider<C, S, E>, with a
// controller's shape: `decide` reads the state at a time, there is no command). The write loop
// (write-batch.ts) is written once against this interface; shared/job/index.ts and
// shared/jobset/index.ts each export theirs. Besides initialState/evolve/decide, the loop needs
// what it takes to keep a log: reading and writing its entries, dropping what the fold already
// holds, snapshots, the outbox pages of a sync, the fleet summary, and what other logs learn.

/** An event as the loop handles it: observations and decisions carry a type and an id; `seq` once logged. */
export interface LogEvent {
  readonly type: string;
  readonly eventId: string;
  readonly seq?: number;
}

/** What one sync decided: decisions with their ids (paged to fit log entries), and their commands. */
export interface Decided<D, C> {
  readonly decisions: readonly D[];
  readonly commands: readonly C[];
  /** When the log must be decided again though nothing arrives (a deadline, a backoff). */
  readonly wakeAt: string | undefined;
}

/** What the outbox carries for one decision of a sync. */
export interface DecisionOutbox {
  /** Events built when decided, queued in the commit step that logs the decision. */
  readonly inline: readonly OutboundEvent[];
  /** A termination page's pods and shared fields, carried by the step's outbox item (undefined: none to send). */
  readonly terminations: TerminationPage | undefined;
}

/** What a sync queues: per decision, and every event it sends (for metrics and callers). */
export interface SyncOutbox {
  /** One per decision, in order. */
  readonly decisions: readonly DecisionOutbox[];
  /** Every event the sync sends, in the order it is published, as it is published. */
  readonly published: readonly OutboundEvent[];
}

/** An entry for another log that a sync of this one produced (a child Job's status, for its JobSet). */
export interface Report {
  readonly stream: StreamId;
  readonly entry: NewEntry;
  /**
   * What the entry tells the other log, the counts it carries for that log's bookkeeping left
   * out: a report that says what the one before it said is sent for its counts only (write-batch.ts).
   */
  readonly says?: string;
  /**
   * For a report sent for its counts only: `next`, an entry the other log's batch holds after
   * it (fed-logs.ts), carrying these counts too; 'passes' when `next` carries none (a later one
   * may take them); undefined when they may not ride on it (the report keeps its own entry).
   */
  readonly rideOn?: (next: NewEntry) => NewEntry | 'passes' | undefined;
}

/** A taken snapshot: the state as stored, and what is archived beside it (a Job's settled pods). */
export interface TakenSnapshot {
  readonly snapshot: unknown;
  readonly archived: readonly unknown[];
}

export interface Decider<S, O extends LogEvent, D extends LogEvent, C, X = unknown> {
  readonly kind: StreamId['kind'];
  initialState(): S;
  /** Folds one logged event (with its seq); the returned state is the one to go on with. */
  evolve(state: S, event: O | D): S;
  /**
   * A reader's fold ends where the writer synced: what that sync derived from the logged facts
   * without logging it (a Job's count of its pods, shared/job/observe-pod.ts countAtSync). The
   * writer's `decide` does it first itself.
   */
  settle?(state: S): void;
  /** One sync at `at`, a time read from the log: new decisions (ids given, pages cut at `pageBytes`) and commands. */
  decide(state: S, at: string, pageBytes?: number): Decided<D, C>;
  /** Why the object stands where it does (its read model: shared/{job,jobset}/explain.ts), from its state and the log folded into it. */
  explain(state: S, log: readonly (O | D)[]): X;
  /** The log position the state is at (events folded). */
  position(state: S): number;
  /** When an observation was observed: a sync is taken after each run of equal times. */
  observedAt(observation: O): string;
  /** Why the fold already holds `observation` (it is then not logged), or undefined when it is news. */
  known(state: S, observation: O): string | undefined;
  /**
   * What an observation says, without its eventId and stamps (observedAt, order stamps): the
   * same eventId with the same content is a duplicate, with another a conflict (keep-news.ts).
   */
  content(observation: O): unknown;
  /** Why `observation` is refused though it is news (its uid reused under another name), or undefined. */
  refuses?(state: S, observation: O): string | undefined;
  /** The record the log keeps of a refused observation, in its place (it starts no sync), or undefined: refused without one. */
  refusal?(refused: RefusedObservation<O>, contentKey: string): D | undefined;
  /** Log entries and back (a stored entry is parsed again: the table is a boundary too). */
  readonly log: {
    observation(observation: O): NewEntry;
    decision(decision: D): NewEntry;
    event(entry: LogEntry): O | D;
    isDecision(event: O | D): event is D;
  };
  /** What decisions record they read, besides the head and its chain hash: fold version and gates. */
  readRecord(state: S, head: number, chainHead: string | undefined): DecisionRead;
  /**
   * The decisions of a cut-short sync (decided again at its position) that the log lacks, given
   * the ones it holds: by id, with the pages a termination still needs.
   */
  restOf(again: readonly D[], logged: readonly (O | D)[], pageBytes?: number): D[];
  /** The commands of `rest` that were not queued with the logged start of its sync. */
  restCommands(again: Decided<D, C>, rest: readonly D[]): C[];
  /** A sync a crash cut short that `last` (the log's last entry) shows without `read.decisions` (older writers). */
  legacyCut?(last: LogEntry, head: number, stream: StreamId): { readonly at: string; readonly read: DecisionRead } | undefined;
  /**
   * A sync the log owes at its head: `last`, the log's last entry, is an observation no sync
   * may have followed (a JobSet log appended to before JobSets went through this loop, whose
   * reconcile never ran). Only for a decider whose syncs settle to a fixed point: deciding again
   * after a sync that decided nothing decides nothing.
   */
  owedSync?(last: LogEntry): { readonly at: string } | undefined;
  /** What a sync queues, decided on `state` (after its decisions); `resumed`: the rest of a cut-short sync. */
  outbox(state: S, decided: Decided<D, C>, resumed: boolean, stream: StreamId): SyncOutbox;
  /** Whom a commit step's outbox item names, or undefined while the object is unknown. */
  outboxTarget(state: S, stream: StreamId): { readonly job: OutboxJob; readonly managedBy: string | undefined } | undefined;
  /**
   * What the log tells other logs after a sync at `at` (without `at`: as of the newest time the
   * state holds), or undefined when it tells nothing.
   */
  report?(state: S, at?: string): Report | undefined;
  readonly snapshot: {
    due(state: S, head: number, snapshotSeq: number, every?: number): boolean;
    take(state: S): TakenSnapshot;
    restore(stored: unknown): S;
  };
  /**
   * The pod archive, for a decider whose snapshots leave settled records out (Jobs): what a
   * load puts back, and what a snapshot stores. Absent for a decider that keeps all in its snapshot.
   */
  readonly archive?: ArchiveHooks<S, O>;
  /** The fleet summary the commit writes, or undefined while the object is unknown. */
  summary(state: S, now: string): SummaryUpdate | undefined;
  /** The object's name, for a parked log's summary. */
  name(state: S): string | undefined;
  /** The name an observation in the log gives the object (read raw: for a log whose fold fails). */
  nameInEntry(entry: LogEntry): string | undefined;
  /** The records a warm state holds, for the cache's bound (a Job's pods). */
  size(state: S): number;
}

export interface ArchiveHooks<S, O> {
  /** Before the batch: the records `observations` name that the state lacks (marked as first sightings). */
  unseen(state: S, observations: readonly O[]): ReadonlySet<string>;
  /** The seqs of the logged entries that name an unseen record first. */
  firstSightings(entries: readonly LogEvent[], unseen: ReadonlySet<string>): number[];
  /**
   * A load from a snapshot: puts back the archived records the tail names that the snapshot
   * lacks, except those whose first mention is marked as a first sighting (seqs), or every
   * archived record (`whole`, or where the decider's decisions always read them all). Returns
   * whether every archived record is back (the state is then not partial).
   */
  restoreForTail(store: PodArchive, stream: StreamId, state: S, tail: readonly LogEvent[], firstSightings: ReadonlySet<number>, whole?: boolean): Promise<boolean>;
  /**
   * Whether `entries`, decided on `state`, hold a decision that read every record (a Job's
   * interim condition logs instants read from every pod): decided on a partial state, the write
   * loop decides the batch again on a state with the whole archive back.
   */
  readsEveryRecord(state: S, entries: readonly LogEvent[]): boolean;
  /**
   * Before a batch on a state loaded from a snapshot: puts back the archived records the batch
   * names, or every archived record when deciding after the batch may read them all. Returns
   * whether every archived record is back (the state is then not partial).
   */
  restoreForBatch(store: PodArchive, stream: StreamId, state: S, observations: readonly O[]): Promise<boolean>;
  /** Stores the records a taken snapshot archived that are not stored yet, and marks them stored. */
  save(store: PodArchive, stream: StreamId, state: S, archived: readonly unknown[]): Promise<void>;
}

/** Any decider, for code that only passes one along. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDecider = Decider<any, any, any, any, any>;
