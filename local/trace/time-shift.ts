import type { TraceEntry } from '../../shared/contract/jsonl-trace.ts';

// A trace is played against the wall clock, so that deadlines and backoffs (which jobfold
// measures with its clock) behave as they did. Every timestamp in it is moved:
//  - the first event's observedAt becomes the start time (now);
//  - each gap between two consecutive observedAt values is divided by `speed` (default 10)
//    and capped at `maxGapMs` (default 5 s), so long quiet spells do not stall the replay;
//  - every other timestamp in the Detail (creationTimestamp, startedAt, finishedAt,
//    lastTransitionTime, …) is interpolated between the observations around it, with slope
//    1/speed before the first and after the last one.
// Each event is put on the bus at its new observedAt, in file order. Specs are never changed:
// an activeDeadlineSeconds of 5 is still 5 seconds of wall clock.

export interface TracePace {
  readonly speed: number;
  readonly maxGapMs: number;
}

export const DEFAULT_PACE: TracePace = { speed: 10, maxGapMs: 5000 };

/** An entry with its Detail's times moved, and when to put it (ms since the epoch). */
export interface PlannedEntry {
  readonly line: number;
  readonly atMs: number;
  readonly entry: { readonly Source: string; readonly DetailType: string; readonly Detail: string };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Deeper values are left as they are; jobfold refuses such events anyway. */
const MAX_DEPTH = 64;

export function planTrace(entries: readonly TraceEntry[], startMs: number, pace: TracePace = DEFAULT_PACE): PlannedEntry[] {
  const details = entries.map((e) => parseDetail(e.Detail));
  const observed = details.map((d) => timeOf(d?.['observedAt']));
  const moveTime = timeMap([...new Set(observed.filter((t) => t !== undefined))].sort((a, b) => a - b), startMs, pace);
  let previous = startMs;
  return entries.map((entry, i) => {
    const detail = details[i];
    const at = observed[i];
    previous = Math.max(previous, at === undefined ? previous : Math.round(moveTime(at)));
    const Detail = detail === undefined ? entry.Detail : JSON.stringify(moveTimes(detail, moveTime, 0));
    return { line: entry.line, atMs: previous, entry: { Source: entry.Source, DetailType: entry.DetailType, Detail } };
  });
}

/** The piecewise-linear map from trace time to wall time through the observation points. */
export function timeMap(points: readonly number[], startMs: number, pace: TracePace): (t: number) => number {
  const walls: number[] = [];
  for (const [i, p] of points.entries()) {
    walls.push(i === 0 ? startMs : (walls[i - 1] as number) + Math.min((p - (points[i - 1] as number)) / pace.speed, pace.maxGapMs));
  }
  const first = points[0];
  const last = points.at(-1);
  return (t) => {
    if (first === undefined || last === undefined) return startMs;
    if (t <= first) return startMs - (first - t) / pace.speed;
    if (t >= last) return (walls.at(-1) as number) + (t - last) / pace.speed;
    let lo = 0;
    let hi = points.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((points[mid] as number) <= t) lo = mid;
      else hi = mid;
    }
    const p0 = points[lo] as number;
    const w0 = walls[lo] as number;
    return w0 + ((t - p0) * ((walls[hi] as number) - w0)) / ((points[hi] as number) - p0);
  };
}

function moveTimes(value: unknown, moveTime: (t: number) => number, depth: number): unknown {
  if (typeof value === 'string') {
    const t = timeOf(value);
    return t === undefined ? value : new Date(Math.round(moveTime(t))).toISOString();
  }
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => moveTimes(v, moveTime, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, moveTimes(v, moveTime, depth + 1)]));
}

function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

function parseDetail(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
