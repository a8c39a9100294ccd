import type { JobTimeline, Transition } from '../../../functions/query/api-types.ts';
import { utc } from '../format.ts';
import { visible } from '../visible.ts';
import { EntryLink, Text } from './common.tsx';

// The conditions timeline: one lane per condition type, a bar while the condition is True,
// a tick at each change (linked to the decision that made it in the history). SVG: a Job has a
// handful of condition changes, so no charting library is needed for them.

const WIDTH = 1000;
const LANE = 26;
const LEFT = 150;
const RIGHT = 10;

const colour = (type: string): string =>
  type === 'Complete' || type === 'SuccessCriteriaMet' || type === 'Completed'
    ? '#2e9b4f'
    : type === 'Failed' || type === 'FailureTarget'
      ? '#d2373f'
      : type === 'Suspended'
        ? '#8a8f98'
        : '#2f6fde';

interface Props {
  timeline: JobTimeline;
  start: string | undefined;
  running: boolean;
  onOpen: (seq: number) => void;
}

export function ConditionsTimeline({ timeline, start, running, onOpen }: Props) {
  const { transitions } = timeline;
  const times = [start, timeline.firstRecordedAt, ...transitions.map((t) => t.at)].filter((t): t is string => !!t).map(Date.parse);
  const t0 = Math.min(...times);
  const lastTimes = [timeline.lastRecordedAt, ...transitions.map((t) => t.at)].filter((t): t is string => !!t).map(Date.parse);
  const t1 = Math.max(t0 + 1000, ...lastTimes, running ? Date.now() : 0);
  const x = (iso: string) => LEFT + ((Date.parse(iso) - t0) / (t1 - t0)) * (WIDTH - LEFT - RIGHT);
  const types = [...new Set(transitions.map((t) => t.type))];
  const height = Math.max(1, types.length) * LANE + 30;
  const end = new Date(t1).toISOString();

  if (transitions.length === 0) {
    return <p class="muted">No condition has been set yet{running ? ' (the Job is running)' : ''}.</p>;
  }
  return (
    <div class="timeline">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={`Conditions over time: ${transitions.map(describe).join('; ')}`}>
        {types.map((type, lane) => {
          const y = lane * LANE + 4;
          const ofType = transitions.filter((t) => t.type === type);
          return (
            <g>
              <text x={LEFT - 8} y={y + LANE / 2 + 1} text-anchor="end" class="lane-label">{type}</text>
              <line x1={LEFT} x2={WIDTH - RIGHT} y1={y + LANE / 2} y2={y + LANE / 2} class="lane-line" />
              {ofType.map((t, i) => {
                if (t.status !== 'True') return null;
                const next = ofType[i + 1];
                const x1 = x(t.at);
                const x2 = next ? x(next.at) : WIDTH - RIGHT;
                return <rect x={x1} y={y + 5} width={Math.max(3, x2 - x1)} height={LANE - 10} rx={3} fill={colour(type)}><title>{describe(t)}</title></rect>;
              })}
              {ofType.map((t) => (
                <line x1={x(t.at)} x2={x(t.at)} y1={y + 2} y2={y + LANE - 2} class="tick"><title>{describe(t)}</title></line>
              ))}
            </g>
          );
        })}
        <text x={LEFT} y={height - 6} class="axis">{utc(new Date(t0).toISOString())}</text>
        <text x={WIDTH - RIGHT} y={height - 6} text-anchor="end" class="axis">{running ? `now (${utc(end)})` : utc(end)}</text>
      </svg>
      <ol class="transitions" aria-label="Condition changes">
        {transitions.map((t) => (
          <li>
            <EntryLink seq={t.seq} onOpen={onOpen}>#{t.seq}</EntryLink>{' '}
            <time dateTime={t.at}>{utc(t.at)}</time> <strong>{t.type}={t.status}</strong> <Text value={t.reason} />
            {t.message && <span class="muted"> — <Text value={t.message} /></span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

const describe = (t: Transition): string => visible(`${t.type}=${t.status} (${t.reason}) at ${utc(t.at)}, event #${t.seq}`);
