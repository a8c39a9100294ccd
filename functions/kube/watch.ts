import type { LogChange } from '../../shared/log/change-feed.ts';
import type { JobSummary, StreamId } from '../../shared/log/event-store.ts';
import type { KubeDeps } from './fleet-reads.ts';
import type { KubeObject, ResourceHandler, Selection } from './handlers.ts';
import { walkPage, type ObjectSource, type Scope } from './list-walk.ts';
import { VISIBILITY_LAG_MS, versionAt, versionMs } from './resource-version.ts';
import { expired } from './status.ts';
import type { WatchEvent } from '../../shared/k8s/watch-event.ts';
import type { WatchSink } from '../../shared/ports.ts';

// `?watch=1`: the changes that follow a resourceVersion, from the change feed
// (shared/log/change-feed.ts). Every POLL_MS the watch asks which logs of the cluster grew since
// the last poll (minus VISIBILITY_LAG_MS, resource-version.ts), expands each grown log into its
// objects again (a Job: itself; its pods; its events) and sends those that changed since it last
// sent them: ADDED for an object first seen after the watch began, MODIFIED otherwise, DELETED
// for one that no longer matches a label selector it matched. jobfold keeps what a cluster
// deleted, so a deleted Job is a MODIFIED Job labelled `jobfold.io/deleted: "true"`.
// Bookmarks (allowWatchBookmarks) carry the time of the poll; with sendInitialEvents=true the
// watch first sends every object as ADDED, then the `k8s.io/initial-events-end` bookmark.
// A watch ends cleanly at its deadline (timeoutSeconds, at most what the deployment allows: API
// Gateway's 29 s in AWS), after a last bookmark; clients watch again from the last version.

export interface WatchPlan<T extends KubeObject> {
  readonly handler: ResourceHandler<T>;
  readonly scope: Scope;
  readonly selection: Selection;
  readonly binding: string;
  /** Resume after this version; undefined: start now, with every object first (RV "" or "0"). */
  readonly fromVersion: string | undefined;
  readonly sendInitialEvents: boolean;
  readonly bookmarks: boolean;
  readonly deadlineMs: number;
  /** Objects as sent: the object itself, or a Table of it (kubectl get -w). */
  readonly present: (objects: readonly T[]) => unknown[];
  /** Initial objects at most (the response must hold them); more is refused before anything is sent. */
  readonly maxInitial: number;
}

export const POLL_MS = 1000;
const BOOKMARK_EVERY_MS = 10_000;
/** Changes a watch reads in one poll; more is an ERROR 410 (list again), never a change skipped. */
export const CHANGES_PER_POLL = 5000;

/** Every object of the scope now, for the initial events; throws when more than `max`. */
export async function initialObjects<T extends KubeObject>(deps: KubeDeps, plan: WatchPlan<T>, listVersion: string): Promise<T[]> {
  const source = await plan.handler.source(deps, plan.scope, plan.selection);
  const objects: T[] = [];
  let continueToken: string | undefined;
  do {
    const page = await walkPage(deps, plan.scope, source, {
      binding: plan.binding, limit: 500, listVersion, maxItems: plan.maxInitial, ...(continueToken ? { continueToken } : {}),
    });
    objects.push(...page.items);
    continueToken = page.continueToken;
    if (objects.length > plan.maxInitial) throw new InitialEventsTooMany(plan.maxInitial);
  } while (continueToken !== undefined);
  return objects;
}

export class InitialEventsTooMany extends Error {
  override name = 'InitialEventsTooMany';
  constructor(max: number) {
    super(`more than ${max} objects to send before the first change: one watch response cannot hold them here; list them with limit and continue, then watch from the list's resourceVersion`);
  }
}

/** What the watch last sent of each object (by namespace/name), and of each log. */
interface Sent {
  readonly version: string;
  readonly matched: boolean;
}

export async function runWatch<T extends KubeObject>(deps: KubeDeps, plan: WatchPlan<T>, sink: WatchSink, initial: readonly T[] | undefined): Promise<void> {
  const startMs = plan.fromVersion === undefined ? deps.now() : versionMs(plan.fromVersion);
  const sent = new Map<string, Sent>();
  const source = await plan.handler.source(deps, plan.scope, plan.selection);
  const send = (type: WatchEvent['type'], objects: readonly T[], first = false): boolean => {
    const presented = plan.present(objects);
    return presented.every((object) => sink.write({ type, object }, first));
  };
  if (initial !== undefined) {
    for (const object of initial) sent.set(keyOf(object), { version: object.metadata.resourceVersion, matched: true });
    if (!send('ADDED', initial, true)) return;
    if (plan.sendInitialEvents && !sink.write(bookmark(plan.handler, versionAt(startMs), true), true)) return;
  }
  /** Per log: the head the watch has seen, so a log that did not grow is not expanded again. */
  const heads = new Map<string, number>();
  let since = startMs - VISIBILITY_LAG_MS;
  let lastBookmark = deps.now();
  let pollAt = startMs;
  for (;;) {
    pollAt = deps.now();
    const grown = await grownLogs(deps, plan.scope, source, since, heads);
    if (grown === 'too many') {
      // More log writes in one poll than a watch follows: said, not skipped. Clients list again.
      sink.write({ type: 'ERROR', object: expired(`more than ${CHANGES_PER_POLL} changes in the cluster within ${POLL_MS} ms: too many for one watch to follow here; list again`).status });
      return;
    }
    since = pollAt - VISIBILITY_LAG_MS;
    const changes = await changedObjects(deps, source, grown, startMs, sent);
    for (const { type, object } of changes) {
      if (!send(type, [object])) return;
    }
    if (plan.bookmarks && deps.now() - lastBookmark >= BOOKMARK_EVERY_MS) {
      if (!sink.write(bookmark(plan.handler, versionAt(pollAt), false))) return;
      lastBookmark = deps.now();
    }
    if (sink.closed) return;
    const left = plan.deadlineMs - deps.now();
    if (left <= 0) break;
    await sleep(Math.min(POLL_MS, left));
    if (sink.closed) return;
  }
  // Every change recorded by the last poll was sent (or is within the lag a resume replays).
  if (plan.bookmarks) sink.write(bookmark(plan.handler, versionAt(pollAt), false));
}

interface Grown {
  readonly summary: JobSummary;
  /** Its head before the growth this poll saw (0: the log began within the watch's window). */
  readonly before: number;
}

/**
 * The logs of the scope that grew in the changes recorded since `sinceMs`, with their summaries;
 * 'too many' when more than CHANGES_PER_POLL changes were recorded (the rest is never skipped).
 */
async function grownLogs<T>(deps: KubeDeps, scope: Scope, source: ObjectSource<T>, sinceMs: number, heads: Map<string, number>): Promise<Grown[] | 'too many'> {
  const onlyUids = source.only === undefined ? undefined : new Set(source.only.map((s) => s.uid));
  const grown = new Map<string, { stream: StreamId; first: number; last: number }>();
  for (const kind of source.kinds) {
    let cursor: string | undefined;
    let read = 0;
    do {
      const page = await deps.store.logChanges({ kind, clusterId: scope.cluster, sinceMs, limit: 1000, ...(cursor ? { cursor } : {}) });
      for (const change of page.changes) collect(grown, change, scope, onlyUids);
      read += page.changes.length;
      cursor = page.cursor;
    } while (cursor !== undefined && read < CHANGES_PER_POLL);
    if (cursor !== undefined) return 'too many';
  }
  const fresh = [...grown.entries()].filter(([key, g]) => (heads.get(key) ?? 0) < g.last);
  const summaries = await deps.store.getSummaries(fresh.map(([, g]) => g.stream));
  const byUid = new Map(summaries.map((s) => [s.uid, s]));
  const result: Grown[] = [];
  for (const [key, g] of fresh) {
    const summary = byUid.get(g.stream.uid);
    if (summary === undefined) continue;
    const known = heads.get(key);
    result.push({ summary, before: known ?? g.first - 1 });
    heads.set(key, g.last);
  }
  return result;
}

function collect(grown: Map<string, { stream: StreamId; first: number; last: number }>, change: LogChange, scope: Scope, onlyUids: ReadonlySet<string> | undefined): void {
  if (scope.namespace !== undefined && change.stream.namespace !== scope.namespace) return;
  if (onlyUids !== undefined && !onlyUids.has(change.stream.uid)) return;
  const key = streamKey(change.stream);
  const known = grown.get(key);
  grown.set(key, {
    stream: change.stream,
    first: Math.min(known?.first ?? change.firstSeq, change.firstSeq),
    last: Math.max(known?.last ?? change.lastSeq, change.lastSeq),
  });
}

/** The objects of the grown logs that changed since the watch last sent them, oldest version first. */
async function changedObjects<T extends KubeObject>(
  deps: KubeDeps, source: ObjectSource<T>, grown: readonly Grown[], startMs: number, sent: Map<string, Sent>,
): Promise<{ type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }[]> {
  const out: { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T; version: number }[] = [];
  for (const { summary } of grown) {
    const superseded = (await deps.store.findJob({ kind: summary.kind, clusterId: summary.clusterId, namespace: summary.namespace, name: summary.name }))?.uid !== summary.uid;
    if (superseded && !source.includeSuperseded) continue;
    const { items } = await source.expand(summary, superseded, undefined);
    for (const object of items) {
      const key = keyOf(object);
      const before = sent.get(key);
      if (before?.version === object.metadata.resourceVersion) continue;
      const matched = source.matches(object);
      sent.set(key, { version: object.metadata.resourceVersion, matched });
      const version = Number(object.metadata.resourceVersion);
      if (matched) {
        // First seen after the watch began: an object created since (its version is newer than
        // the start), or one that came to match the selector.
        const added = before === undefined ? Math.floor(version / 1000) >= startMs && createdAfter(object, startMs) : !before.matched;
        out.push({ type: added ? 'ADDED' : 'MODIFIED', object, version });
      } else if (before?.matched === true) {
        out.push({ type: 'DELETED', object, version });
      }
    }
  }
  return out.sort((a, b) => a.version - b.version).map(({ type, object }) => ({ type, object }));
}

function createdAfter(object: KubeObject, startMs: number): boolean {
  const created = (object.metadata as { creationTimestamp?: string }).creationTimestamp;
  return created !== undefined && Date.parse(created) >= Math.floor(startMs / 1000) * 1000;
}

function keyOf(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name}/${(object.metadata as { uid?: string }).uid ?? ''}`;
}

function streamKey(stream: StreamId): string {
  return `${stream.kind}/${stream.namespace}/${stream.uid}`;
}

/** A BOOKMARK: only the kind and the version (and, after the initial events, the annotation). */
export function bookmark(handler: ResourceHandler<KubeObject> | ResourceHandler<never>, resourceVersion: string, initialEventsEnd: boolean): WatchEvent {
  const { group, version, kind } = handler.resource;
  return {
    type: 'BOOKMARK',
    object: {
      kind,
      apiVersion: group === '' ? version : `${group}/${version}`,
      metadata: {
        resourceVersion,
        creationTimestamp: null,
        ...(initialEventsEnd ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
      },
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

