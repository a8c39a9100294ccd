import { createHash } from 'node:crypto';
import type { JobSummary } from '../../../shared/log/event-store.ts';

// What every object this API serves shares: jobfold's labels, times as metav1 writes them, and
// the resourceVersion derived from the log.

/** An object as this API serves it: its type, the metadata every object has, its spec and status. */
export type ServedObject<ApiVersion extends string, Kind extends string> = {
  apiVersion: ApiVersion;
  kind: Kind;
  metadata: Record<string, unknown> & { name: string; namespace: string; uid: string; resourceVersion: string; labels: Record<string, string> };
  spec: Record<string, unknown>;
  status: Record<string, unknown>;
};

/** A Job or JobSet folded from its log, with where the log stood. */
export interface FoldedObject<State> {
  readonly summary: JobSummary;
  readonly state: State;
  readonly head: number;
  /** When the entry at `head` was recorded (the object's resourceVersion). */
  readonly headRecordedAt: string | undefined;
  /** A newer object has this name (listsSuperseded in handlers.ts says when such objects are listed). */
  readonly superseded: boolean;
}

/** On a Job, JobSet or pod the cluster deleted: it stays listed with its last state. */
export const DELETED_LABEL = 'jobfold.io/deleted';
/**
 * On an older object of a reused name (a Job deleted and created again): the name shows the
 * newest one; older ones are listed only when a label selector asks for them by uid or by this
 * label (listsSuperseded in handlers.ts).
 */
export const SUPERSEDED_LABEL = 'jobfold.io/superseded';

/** Job labels upstream puts on a Job's pods and pod template, and on the Job when it has none. */
export { CONTROLLER_UID_LABEL, JOB_NAME_LABEL } from '../../../shared/job/index.ts';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';

/** metav1.Time: RFC 3339 in UTC to the second, as the API server writes it. */
export function metaTime(time: string | undefined): string | undefined {
  if (time === undefined) return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
export function microTime(time: string): string {
  const ms = Date.parse(time);
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * Adds jobfold's labels to an object's own: deleted (the cluster deleted it) and superseded (a
 * newer object has its name). Values are "true"; absent means no.
 */
export function withJobfoldLabels(
  labels: Readonly<Record<string, string>> | undefined,
  flags: { readonly deleted: boolean; readonly superseded: boolean },
): Record<string, string> {
  return {
    ...labels,
    ...(flags.deleted ? { [DELETED_LABEL]: 'true' } : {}),
    ...(flags.superseded ? { [SUPERSEDED_LABEL]: 'true' } : {}),
  };
}

/** Drops undefined values so the JSON reads as the API server's (omitempty). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A uid in UUID form, derived from what names an object jobfold makes (an event, a namespace). */
export function derivedUid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
