import type { JobSummary, StreamId } from '../../shared/log/event-store.ts';
import { openCursor, sealCursor } from '../query/signed-cursor.ts';
import { mapLimited, supersededAmong, type KubeDeps } from './fleet-reads.ts';
import { badRequest } from './status.ts';

// One walk serves every list: the logs of a scope (a cluster, or one namespace) in the fleet
// view's order (newest created first, the store's cursor), each log expanded into the objects it
// holds (a Job: itself; its pods; its events), filtered by the selectors. A page stops at
// `limit` objects, or when it has read logs for PAGE_BUDGET_MS, and `continue` says where the
// next one starts: the log (by a store cursor that lists it first), the place among its objects,
// and the log's head when the walk reached it, so a log's objects are paged as of one position
// even while it grows. The token is sealed with the cursor key (signed-cursor.ts) and bound to
// the resource, scope and selectors: a forged, altered or transplanted token is a 400.

/** Where a walk stands, inside the sealed continue token. */
interface Position {
  /** Index into the source's kinds. */
  readonly k: number;
  /** Store cursor that lists the current log first (absent: the scope's start). */
  readonly a?: string;
  /** The current log's uid, and how many of its objects were served. */
  readonly u?: string;
  readonly o?: number;
  /** The current log's head when the walk reached it. */
  readonly h?: number;
}

interface Token extends Position {
  readonly v: 1;
  /** What the token is bound to (resource, scope, selectors). */
  readonly b: string;
  /** The list's resourceVersion, from its first page. */
  readonly rv: string;
}

const TOKEN_PURPOSE = 'k8s-continue';
/** Longest continue token accepted (a real one is a few hundred bytes). */
const MAX_TOKEN_LENGTH = 4096;
/** A page stops reading new logs after this long (in AWS the API gives up at 29 s). */
export const PAGE_BUDGET_MS = 8_000;

/** The objects one log holds, in a stable order, as of `head` (the log's current head when undefined). */
export interface Expansion<T> {
  readonly head: number;
  readonly items: readonly T[];
}

export interface ObjectSource<T> {
  /** The kinds of logs to walk, in order. */
  readonly kinds: readonly StreamId['kind'][];
  /** Logs read per store query (a Job list wants as many as its page; pods and events few). */
  chunk(remaining: number): number;
  expand(summary: JobSummary, superseded: boolean, pinnedHead: number | undefined): Promise<Expansion<T>>;
  matches(item: T): boolean;
  /** Show objects a newer one of the same name supersedes (fleet-reads.ts). */
  readonly includeSuperseded: boolean;
  /** Only these logs, in this order, instead of the scope's (a selector named them). */
  readonly only?: readonly JobSummary[];
}

export interface Scope {
  readonly cluster: string;
  readonly namespace: string | undefined;
}

export interface WalkPage<T> {
  readonly items: T[];
  readonly resourceVersion: string;
  readonly continueToken: string | undefined;
}

/**
 * One page of a list. `binding` names what the token is for; `limit` 0 means every object
 * (the walk still stops at `maxItems`, and says so).
 */
export async function walkPage<T>(
  deps: KubeDeps, scope: Scope, source: ObjectSource<T>,
  options: { readonly binding: string; readonly limit: number; readonly continueToken?: string; readonly listVersion: string; readonly maxItems: number },
): Promise<WalkPage<T> & { readonly truncated: boolean }> {
  const token = options.continueToken === undefined ? undefined : openToken(deps, options.continueToken, options.binding);
  const limit = options.limit === 0 ? options.maxItems : options.limit;
  const started = deps.now();
  const items: T[] = [];
  const resourceVersion = token?.rv ?? options.listVersion;
  let position: Position = token ?? { k: 0 };
  const seal = (p: Position): string => sealCursor(deps.cursorKey, { v: 1, b: options.binding, rv: resourceVersion, ...p } satisfies Token, TOKEN_PURPOSE);

  for (let k = position.k; k < source.kinds.length; k++, position = { k }) {
    const kind = source.kinds[k] as StreamId['kind'];
    let cursor = position.a;
    for (;;) {
      const page = await summaries(deps, scope, source, kind, cursor, source.chunk(limit - items.length));
      const flags = await supersededAmong(deps.store, page.items);
      const usable = page.items.map((summary) => ({ summary, superseded: flags.has(summary.uid) }));
      const expansions = await mapLimited(usable, 16, ({ summary, superseded }) => {
        if (superseded && !source.includeSuperseded) return Promise.resolve<Expansion<T>>({ head: 0, items: [] });
        const resumed = summary.uid === position.u ? position.h : undefined;
        return source.expand(summary, superseded, resumed);
      });
      for (const [i, { summary }] of usable.entries()) {
        const expansion = expansions[i] as Expansion<T>;
        const at = i === 0 ? cursor : page.after[i - 1];
        const from = summary.uid === position.u ? (position.o ?? 0) : 0;
        for (let j = from; j < expansion.items.length; j++) {
          const item = expansion.items[j] as T;
          if (!source.matches(item)) continue;
          if (items.length === limit) {
            const next = { k, ...(at === undefined ? {} : { a: at }), u: summary.uid, o: j, h: expansion.head };
            return { items, resourceVersion, continueToken: seal(next), truncated: options.limit === 0 };
          }
          items.push(item);
        }
        const outOfTime = deps.now() - started > PAGE_BUDGET_MS;
        if (outOfTime && (i + 1 < usable.length || page.cursor !== undefined || k + 1 < source.kinds.length)) {
          const after = page.after[i];
          const next: Position = i + 1 < usable.length || page.cursor !== undefined ? { k, ...(after === undefined ? {} : { a: after }) } : { k: k + 1 };
          return { items, resourceVersion, continueToken: seal(next), truncated: options.limit === 0 };
        }
      }
      if (page.cursor === undefined) break;
      cursor = page.cursor;
    }
  }
  return { items, resourceVersion, continueToken: undefined, truncated: false };
}

/** The next logs of the scope (or of the logs a selector named), with a cursor after each. */
async function summaries(
  deps: KubeDeps, scope: Scope, source: ObjectSource<unknown>, kind: StreamId['kind'], cursor: string | undefined, limit: number,
): Promise<{ items: JobSummary[]; after: string[]; cursor?: string }> {
  if (source.only !== undefined) {
    const start = cursor === undefined ? 0 : Number(cursor);
    const of = source.only.filter((s) => s.kind === kind);
    const items = of.slice(start, start + limit);
    const after = items.map((_, i) => String(start + i + 1));
    return { items, after, ...(start + items.length < of.length ? { cursor: String(start + items.length) } : {}) };
  }
  const page = await deps.store.listJobs({ kind, clusterId: scope.cluster, ...(scope.namespace === undefined ? {} : { namespace: scope.namespace }), limit, ...(cursor === undefined ? {} : { cursor }) });
  return { items: page.items, after: page.after, ...(page.cursor === undefined ? {} : { cursor: page.cursor }) };
}

function openToken(deps: KubeDeps, text: string, binding: string): Token {
  const invalid = (why: string) => badRequest(`continue: Invalid value: ${why}`, 'continue');
  if (text.length > MAX_TOKEN_LENGTH) throw invalid(`longer than ${MAX_TOKEN_LENGTH} characters`);
  const opened = openCursor(deps.cursorKey, text, TOKEN_PURPOSE);
  if ('refusal' in opened) throw invalid(`not a continue token this API returned (${opened.refusal.replace(/^is /, '')})`);
  const t = opened.payload as Partial<Token> | undefined;
  const ok = t !== undefined && t !== null && t.v === 1 && typeof t.b === 'string' && typeof t.rv === 'string' && Number.isInteger(t.k)
    && (t.a === undefined || typeof t.a === 'string') && (t.u === undefined || typeof t.u === 'string')
    && (t.o === undefined || Number.isInteger(t.o)) && (t.h === undefined || Number.isInteger(t.h));
  if (!ok) throw invalid('not a continue token this API returned');
  if (t.b !== binding) throw invalid('it was returned for another list (resource, namespace or selectors); repeat the first request\'s');
  return t as Token;
}
