import type { ComponentChildren } from 'preact';
import { visible } from '../visible.ts';

/**
 * Text from a cluster, with control and invisible characters shown escaped (visible.ts);
 * `multiline` keeps line breaks (pretty-printed JSON).
 */
export function Text({ value, multiline = false }: { value: string | null | undefined; multiline?: boolean }) {
  if (multiline) return <>{(value ?? '').split('\n').map((line, i) => <>{i > 0 && '\n'}<Text value={line} /></>)}</>;
  const shown = visible(value);
  return shown === (value ?? '') ? <>{shown}</> : <span class="escaped" title="contains control or invisible characters, shown escaped">{shown}</span>;
}

export function StateBadge({ state }: { state: string }) {
  return <span class={`badge state-${state}`}>{state}</span>;
}

export function ErrorNote({ error }: { error: string | undefined }) {
  if (!error) return null;
  return <p class="error" role="alert"><Text value={error} /></p>;
}

/** A link to a log entry (its evidence), opening it in the page's evidence panel. */
export function EntryLink({ seq, onOpen, children }: { seq: number; onOpen: (seq: number) => void; children?: ComponentChildren }) {
  return (
    <a
      href={`#entry-${seq}`}
      class="entry-link"
      onClick={(e) => {
        e.preventDefault();
        onOpen(seq);
      }}
    >
      {children ?? `event #${seq}`}
    </a>
  );
}

/** Rows of a `kubectl describe`-style list: label, value. */
export function Describe({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="describe">
      {rows.map(([label, value]) => (
        <>
          <dt>{label}:</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

export function Section({ id, title, children, extra }: { id: string; title: string; children: ComponentChildren; extra?: ComponentChildren }) {
  return (
    <section aria-labelledby={`${id}-title`} class="panel" id={id}>
      <h2 id={`${id}-title`}>{title} {extra}</h2>
      {children}
    </section>
  );
}
