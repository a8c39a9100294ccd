import { getJson } from '../api.ts';
import type { HistoryEntry, HistoryPage } from '../../../functions/query/api-types.ts';
import { utc } from '../format.ts';
import { usePolled } from '../poll.ts';
import { EntryLink, ErrorNote, Section, Text } from './common.tsx';

// The history of an object: the last entries of its log, and the one entry a link opened (the
// evidence of a decision), read from GET …/history?after=seq-1&limit=1 however long the log is.

const RECENT = 12;

interface Props {
  base: string;
  uid: string | undefined;
  head: number;
  selected: number | undefined;
  onOpen: (seq: number) => void;
}

export function HistoryPanel({ base, uid, head, selected, onOpen }: Props) {
  const recent = usePolled(
    (signal) => getJson<HistoryPage>(`${base}/history`, { uid, after: Math.max(0, head - RECENT), limit: RECENT }, signal),
    `${base}|${uid}|${head}`,
    true,
    false,
  );
  const entry = usePolled(
    (signal) => getJson<HistoryPage>(`${base}/history`, { uid, after: (selected ?? 1) - 1, limit: 1 }, signal),
    `${base}|${uid}|entry|${selected}`,
    selected !== undefined,
    false,
  );
  const opened = selected === undefined ? undefined : entry.data?.entries[0];
  return (
    <Section id="history" title="History" extra={<span class="muted">({head.toLocaleString('en')} entries in the log)</span>}>
      <div class="history">
        <div>
          <h3>Latest entries</h3>
          <ErrorNote error={recent.error} />
          <ol class="entries">
            {(recent.data?.entries ?? []).slice().reverse().map((e) => (
              <li class={`category-${e.category}${e.seq === selected ? ' selected' : ''}`}>
                <EntryLink seq={e.seq} onOpen={onOpen}>#{e.seq}</EntryLink> <span class="type">{e.type}</span>{' '}
                <span class="muted" title={utc(e.observedAt ?? e.at ?? e.recordedAt)}>{e.category} · {utc(e.observedAt ?? e.at ?? e.recordedAt).slice(11)}</span>
              </li>
            ))}
          </ol>
          <label class="goto">
            Open entry #{' '}
            <input
              type="number"
              min={1}
              max={head}
              onChange={(e) => {
                const seq = Number((e.currentTarget as HTMLInputElement).value);
                if (Number.isInteger(seq) && seq >= 1 && seq <= head) onOpen(seq);
              }}
            />
          </label>
        </div>
        <div id="evidence" tabIndex={-1} aria-live="polite">
          <h3>{selected === undefined ? 'Evidence' : `Entry #${selected}`}</h3>
          {selected === undefined && <p class="muted">Open an event link (in Why, the timeline or Commands) to read the entry it points to.</p>}
          <ErrorNote error={selected === undefined ? undefined : entry.error} />
          {opened && <EntryBody entry={opened} />}
        </div>
      </div>
    </Section>
  );
}

function EntryBody({ entry }: { entry: HistoryEntry }) {
  return (
    <div class="entry">
      <p>
        <strong>{entry.type}</strong> ({entry.category}) · recorded {utc(entry.recordedAt)}
        {entry.observedAt && <> · observed {utc(entry.observedAt)}</>}
      </p>
      <p class="muted">eventId <Text value={entry.eventId} /></p>
      <pre><Text value={JSON.stringify(entry.body, null, 2)} multiline /></pre>
    </div>
  );
}
