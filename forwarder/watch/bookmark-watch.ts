import { Watch, type KubeConfig } from '@kubernetes/client-node';

/** Server-side watch timeouts are spread over this range, as client-go does, to avoid herds. */
const MIN_WATCH_TIMEOUT_SECONDS = 300;

/**
 * A Watch that asks for BOOKMARK events and a server-side timeout. Bookmarks move the
 * informer's resourceVersion forward on quiet collections, so a reconnect resumes from a
 * recent version instead of one old enough to get 410 Gone and a full relist.
 */
export class BookmarkWatch extends Watch {
  readonly #random: () => number;

  constructor(config: KubeConfig, random: () => number = Math.random) {
    super(config);
    this.#random = random;
    // The client aborts a watch silent for requestTimeoutMs (private, 30 s by default), which
    // would cut every quiet watch before its first bookmark; let the server timeout end it.
    (this as unknown as { requestTimeoutMs: number }).requestTimeoutMs = 2 * MIN_WATCH_TIMEOUT_SECONDS * 1000 + 30_000;
  }

  override watch(
    path: string,
    queryParams: Record<string, string | number | boolean | undefined>,
    callback: (phase: string, apiObj: any, watchObj?: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController> {
    const timeoutSeconds = Math.floor(MIN_WATCH_TIMEOUT_SECONDS * (1 + this.#random()));
    return super.watch(path, { ...queryParams, allowWatchBookmarks: true, timeoutSeconds }, callback, done);
  }
}
