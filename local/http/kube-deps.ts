import { readFileSync } from 'node:fs';
import type { ChangeFeed } from '../../shared/log/change-feed.ts';
import type { EventStore } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import type { KubeDeps } from '../../functions/kube/fleet-reads.ts';
import { LogCache } from '../../functions/kube/log-cache.ts';
import { localCursorKey } from './query-function.ts';

/** jobfold's version, from this checkout's package.json (the kube API's /version says it). */
export const JOBFOLD_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The kube API's dependencies on the local stack: its store, the wall clock, the local cursor key. */
export function kubeDeps(store: EventStore & PodArchive & ChangeFeed, config: FoldConfig): KubeDeps {
  return { store, config, cursorKey: localCursorKey(), now: Date.now, jobfoldVersion: JOBFOLD_VERSION, logCache: new LogCache() };
}
