import { useRef } from 'preact/hooks';
import { getJson } from '../api.ts';
import type { FleetItem, FleetOverview, FleetState } from '../../../functions/query/api-types.ts';
import { age, utc } from '../format.ts';
import { visible } from '../visible.ts';
import { ErrorNote, StateBadge, Text } from '../parts/common.tsx';
import { usePolled } from '../poll.ts';
import { fleetHref, objectHref } from '../route.ts';

// The fleet: Jobs and JobSets of every cluster, filtered by kind, cluster, namespace, state,
// reason and attention (kept in the URL), counted by reason, paged. A stalled object (every
// reconcile fails) and a refused update show in their row with the error. Rows are
// keyboard-navigable: ↑/↓ move, Home/End jump, Enter opens.

const STATES: FleetState[] = ['Running', 'Suspended', 'Succeeded', 'Failed', 'Rejected'];
const PAGE = 50;
const FILTERS = ['kind', 'cluster', 'namespace', 'state', 'reason', 'attention'] as const;
const ATTENTION: Record<string, string> = { stalled: 'Stalled', refusedUpdate: 'Update refused' };
type Filter = (typeof FILTERS)[number];

export function FleetPage({ query }: { query: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? undefined])) as Record<Filter, string | undefined>;
  const offset = Number(query.get('offset') ?? '0') || 0;
  const key = JSON.stringify({ filters, offset });
  const fleet = usePolled((signal) => getJson<FleetOverview>('/v1/fleet', { ...filters, limit: PAGE, offset }, signal), key);
  const go = (change: Partial<Record<Filter | 'offset', string | undefined>>) => {
    const next: Record<string, string | undefined> = { ...filters, offset: undefined, ...change };
    location.hash = fleetHref(next);
  };
  const data = fleet.data;
  return (
    <main aria-labelledby="fleet-title">
      <h1 id="fleet-title">Fleet</h1>
      <Filters filters={filters} data={data} go={go} />
      <ErrorNote error={fleet.error} />
      {data && <AttentionNote data={data} filters={filters} go={go} />}
      {data && <ReasonCounts data={data} filters={filters} go={go} />}
      {data && <FleetTable items={data.items} />}
      {data && <Pager data={data} go={go} />}
      {!data && fleet.loading && <p class="muted">Loading the fleet…</p>}
    </main>
  );
}

function Filters(props: {
  filters: Record<Filter, string | undefined>;
  data: FleetOverview | undefined;
  go: (change: Partial<Record<Filter, string | undefined>>) => void;
}) {
  const { filters, data, go } = props;
  const reasons = [...new Set((data?.counts ?? []).map((c) => c.reason))].sort();
  if (filters.reason !== undefined && !reasons.includes(filters.reason === '-' ? '' : filters.reason)) reasons.push(filters.reason);
  const select = (name: Filter, label: string, options: string[], labelOf: (v: string) => string = visible) => (
    <label class="filter">
      <span>{label}</span>
      <select
        name={name}
        value={filters[name] ?? ''}
        onChange={(e) => {
          const value = (e.currentTarget as HTMLSelectElement).value;
          go({ [name]: value === '' ? undefined : value, ...(name === 'cluster' ? { namespace: undefined } : {}) });
        }}
      >
        <option value="">All</option>
        {options.map((o) => (
          <option value={o}>{labelOf(o)}</option>
        ))}
      </select>
    </label>
  );
  return (
    <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      {select('kind', 'Kind', ['Job', 'JobSet'])}
      {select('cluster', 'Cluster', withCurrent(data?.clusters ?? [], filters.cluster))}
      {select('namespace', 'Namespace', withCurrent(data?.namespaces ?? [], filters.namespace))}
      {select('state', 'State', STATES)}
      {select('reason', 'Reason', reasons.map((r) => (r === '' ? '-' : r)), (r) => (r === '-' ? '(none)' : visible(r)))}
      {select('attention', 'Attention', Object.keys(ATTENTION), (a) => ATTENTION[a] ?? visible(a))}
      {FILTERS.some((f) => filters[f] !== undefined) && (
        <button type="button" onClick={() => go(Object.fromEntries(FILTERS.map((f) => [f, undefined])))}>
          Clear filters
        </button>
      )}
    </form>
  );
}

const withCurrent = (values: string[], current: string | undefined): string[] =>
  current === undefined || values.includes(current) ? values : [...values, current];

/** Objects jobfold cannot decide (stalled) or whose latest update it refused, as filter buttons. */
function AttentionNote({ data, filters, go }: {
  data: FleetOverview;
  filters: Record<Filter, string | undefined>;
  go: (change: Partial<Record<Filter, string | undefined>>) => void;
}) {
  const { stalled, refusedUpdate } = data.attention;
  if (stalled === 0 && refusedUpdate === 0) return null;
  const button = (key: 'stalled' | 'refusedUpdate', n: number, words: string, title: string) =>
    n > 0 && (
      <button type="button" class={`count attention-${key}`} aria-pressed={filters.attention === key} title={title}
        onClick={() => go({ attention: filters.attention === key ? undefined : key })}>
        <span class="n">{n.toLocaleString('en')}</span> {words}
      </button>
    );
  return (
    <section aria-labelledby="attention-title" class="attention">
      <h2 id="attention-title">Needs attention</h2>
      {button('stalled', stalled, 'stalled: every reconcile fails',
        'jobfold parks a Job whose reconcile fails on every retry; it is not decided until a reconcile commits again')}{' '}
      {button('refusedUpdate', refusedUpdate, 'with a refused update',
        'The latest update of the Job is one the API server would refuse; the Job folds under its last valid spec')}
    </section>
  );
}

function ReasonCounts({ data, filters, go }: {
  data: FleetOverview;
  filters: Record<Filter, string | undefined>;
  go: (change: Partial<Record<Filter, string | undefined>>) => void;
}) {
  const total = data.counts.reduce((n, c) => n + c.count, 0);
  return (
    <section aria-labelledby="counts-title" class="counts">
      <h2 id="counts-title">By reason <span class="muted">({total.toLocaleString('en')} in scope)</span></h2>
      <ul>
        {data.counts.map((c) => {
          const reason = c.reason === '' ? '-' : c.reason;
          const selected = filters.state === c.state && filters.reason === reason && filters.kind === c.kind;
          return (
            <li>
              <button
                type="button"
                class="count"
                aria-pressed={selected}
                title={`Show only ${c.kind}s that are ${c.state} with reason ${c.reason || '(none)'}`}
                onClick={() => go(selected ? { state: undefined, reason: undefined, kind: undefined } : { state: c.state, reason, kind: c.kind })}
              >
                <span class="n">{c.count.toLocaleString('en')}</span> <StateBadge state={c.state} />{' '}
                <Text value={c.reason || '(no reason)'} /> <span class="muted">{c.kind}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function FleetTable({ items }: { items: FleetItem[] }) {
  const body = useRef<HTMLTableSectionElement>(null);
  // The row in the tab order (a roving tabindex), kept by key so a refresh of the list does not
  // send the tab stop back to the first row.
  const tabStop = useRef<string | undefined>(undefined);
  const rows = () => [...(body.current?.querySelectorAll<HTMLTableRowElement>('tr') ?? [])];
  const onKey = (event: KeyboardEvent) => {
    const all = rows();
    const at = all.indexOf(document.activeElement as HTMLTableRowElement);
    if (at < 0) return;
    const move = (to: number) => {
      event.preventDefault();
      const target = all[Math.max(0, Math.min(all.length - 1, to))];
      for (const r of all) r.tabIndex = r === target ? 0 : -1;
      tabStop.current = target?.dataset['key'];
      target?.focus();
    };
    switch (event.key) {
      case 'ArrowDown': return move(at + 1);
      case 'ArrowUp': return move(at - 1);
      case 'Home': return move(0);
      case 'End': return move(all.length - 1);
      case 'Enter': {
        event.preventDefault();
        all[at]?.querySelector('a')?.click();
      }
    }
  };
  if (items.length === 0) return <p class="empty">No Job or JobSet matches these filters.</p>;
  const now = Date.now();
  const keyOf = (item: FleetItem) => `${item.kind}/${item.clusterId}/${item.uid}`;
  const stop = items.some((item) => keyOf(item) === tabStop.current) ? tabStop.current : keyOf(items[0]!);
  return (
    <table class="fleet" aria-label="Jobs and JobSets" aria-describedby="fleet-keys">
      <caption id="fleet-keys" class="muted">↑/↓ move between rows, Enter opens one.</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Cluster</th>
          <th scope="col">Namespace</th>
          <th scope="col">Name</th>
          <th scope="col">State</th>
          <th scope="col">Reason</th>
          <th scope="col">Age</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody ref={body} onKeyDown={onKey}>
        {items.map((item) => (
          <tr key={keyOf(item)} data-key={keyOf(item)} tabIndex={keyOf(item) === stop ? 0 : -1} aria-label={`${item.kind} ${item.namespace}/${item.name} in ${item.clusterId}: ${item.state}${item.stalled ? ', stalled' : ''}${item.refusedUpdate ? ', update refused' : ''}`}>
            <td>{item.kind}</td>
            <td><Text value={item.clusterId} /></td>
            <td><Text value={item.namespace} /></td>
            <td>
              <a href={objectHref(item.kind, item.clusterId, item.namespace, item.name, item.uid)} tabIndex={-1}>
                <Text value={item.name} />
              </a>
              <Problems item={item} />
            </td>
            <td>
              <StateBadge state={item.state} />
              {item.stalled && <> <span class="badge stalled" title={`since ${item.stalled.since}`}>Stalled</span></>}
              {item.refusedUpdate && <> <span class="badge refused">Update refused</span></>}
            </td>
            <td><Text value={item.reason} /></td>
            <td title={item.createdAt}>{age(item.createdAt, now)}</td>
            <td title={item.updatedAt}>{age(item.updatedAt, now)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Characters of an error shown in a row; the whole text is on the object's page. */
const ERROR_PREVIEW = 160;

/** The errors of a stalled object or a refused update, under the object's name. */
function Problems({ item }: { item: FleetItem }) {
  if (!item.stalled && !item.refusedUpdate) return null;
  const cut = (text: string) => (text.length > ERROR_PREVIEW ? `${text.slice(0, ERROR_PREVIEW)}…` : text);
  return (
    <ul class="problems">
      {item.stalled && (
        <li class="stalled">Stalled since {utc(item.stalled.since)}: <Text value={cut(item.stalled.error)} /></li>
      )}
      {item.refusedUpdate && (
        <li class="refused">Update refused: <Text value={cut(item.refusedUpdate.errors.join('; '))} /></li>
      )}
    </ul>
  );
}

function Pager({ data, go }: { data: FleetOverview; go: (change: { offset?: string }) => void }) {
  const first = data.total === 0 ? 0 : data.offset + 1;
  const last = data.offset + data.items.length;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={data.offset === 0} onClick={() => go({ offset: String(Math.max(0, data.offset - PAGE)) })}>
        ← Previous
      </button>
      <span aria-live="polite">
        {first.toLocaleString('en')}–{last.toLocaleString('en')} of {data.total.toLocaleString('en')}
      </span>
      <button type="button" disabled={data.nextOffset === undefined} onClick={() => go({ offset: String(data.nextOffset) })}>
        Next →
      </button>
    </nav>
  );
}
