import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';

// Pages follow a running Job by polling with backoff: 1 s after a change, doubling while
// nothing changes, up to 16 s; a hidden tab does not poll. `key` changes restart it at once.
// `repeat: false` loads once per key (for what cannot change: a point of the log).

const FIRST_MS = 1000;
const MAX_MS = 16_000;

export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  /** When the data last changed. */
  readonly updatedAt: Date | undefined;
}

export function usePolled<T>(load: (signal: AbortSignal) => Promise<T>, key: string, enabled = true, repeat = true): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ data: undefined, error: undefined, loading: true, updatedAt: undefined });
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_MS;
    let last = '';
    setState((s) => ({ ...s, loading: true, error: undefined }));
    const tick = async () => {
      if (document.hidden) {
        timer = setTimeout(tick, delay);
        return;
      }
      try {
        const data = await loadRef.current(controller.signal);
        const text = JSON.stringify(data);
        if (text !== last) {
          last = text;
          delay = FIRST_MS;
          setState({ data, error: undefined, loading: false, updatedAt: new Date() });
        } else {
          delay = Math.min(delay * 2, MAX_MS);
          setState((s) => (s.loading || s.error ? { ...s, loading: false, error: undefined } : s));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        // 4xx will not get better by asking again; anything else is retried with backoff.
        const message = error instanceof Error ? error.message : String(error);
        setState((s) => ({ ...s, error: message, loading: false }));
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
        delay = Math.min(delay * 2, MAX_MS);
      }
      if (!controller.signal.aborted && (repeat || last === '')) timer = setTimeout(tick, delay);
    };
    void tick();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, enabled, repeat]);
  return state;
}
