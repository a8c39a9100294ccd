import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api.ts';
import type { JobSetCommandsPage } from '../../../functions/query/api-types.ts';
import { ErrorNote } from './common.tsx';

// The Job and JobSet views list the commands of their last 5,000 log entries (fewer when those
// name many pods): `commandsFrom` says where. The commands decided before it are read on demand
// from `…/commands`, which lists every command from the first, paged by a cursor (a big
// termination is split across pages, each item saying which of its pods it holds); only those
// decided before `commandsFrom` are kept, so none is shown twice.

const PAGE = 500;

/** A page of `…/commands`: a Job's or a JobSet's, whose items the caller knows. */
type CommandsPage<T> = Omit<JobSetCommandsPage, 'items'> & { items: T[] };

interface Earlier<T> {
  items: T[];
  cursor: string | undefined;
  done: boolean;
}

export function EarlierCommands<T extends { seq: number }>({ base, uid, before, render }: {
  base: string;
  uid: string | undefined;
  before: number;
  render: (items: T[]) => ComponentChildren;
}) {
  const [earlier, setEarlier] = useState<Earlier<T> | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => setEarlier(undefined), [base, uid, before]);

  const load = async () => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await getJson<CommandsPage<T>>(`${base}/commands`, { uid, limit: PAGE, after: earlier?.cursor });
      const kept = page.items.filter((item) => item.seq < before);
      const done = kept.length < page.items.length || page.nextCursor === undefined || page.through >= before - 1;
      setEarlier({ items: [...(earlier?.items ?? []), ...kept], cursor: page.nextCursor, done });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setLoading(false);
    }
  };

  return (
    <div class="earlier-commands">
      <p class="muted">
        The commands above were decided at log position #{before} or later.{' '}
        {earlier === undefined && <button type="button" onClick={load} disabled={loading}>Show earlier commands</button>}
      </p>
      <ErrorNote error={error} />
      {earlier !== undefined && (
        <>
          <h3>Decided before #{before}{earlier.done ? '' : ' (so far)'}</h3>
          <p class="muted">What the cluster reported afterwards is shown for the commands above only.</p>
          {earlier.items.length === 0 && earlier.done ? <p class="muted">None.</p> : render(earlier.items)}
          {!earlier.done && <button type="button" onClick={load} disabled={loading}>Show more earlier commands</button>}
        </>
      )}
    </div>
  );
}
