import type { JobState } from './state.ts';

/**
 * A JobSet reads a child Job's active, ready, succeeded and failed counts, its conditions and
 * its parallelism, completions and suspend (shared/jobset/child-jobs.ts). The fold keeps a
 * version of that part of the status: it goes up each time the part changes, so a status that
 * returns to an earlier value (ready 1 → 0 → 1) is a new version and reaches the JobSet again,
 * while an unchanged one is reported once (shared/app/child-job-status.ts names entries by it).
 *
 * Cheap on purpose: it runs after every event, and reads counters the fold keeps anyway.
 */
export function trackChildStatus(state: JobState): void {
  const key = childStatusKey(state);
  if (key === state.childStatusKey) return;
  state.childStatusKey = key;
  state.childStatusVersion += 1;
}

function childStatusKey(state: JobState): string {
  const final = state.finalStatus;
  if (final !== undefined) return `final/${final.active}/${final.ready}/${final.succeeded}/${final.failed}/${final.conditions.length}`;
  const { counts, status, spec, settings } = state;
  const succeeded = settings?.indexed ? status.completedIndexes.size : status.succeeded;
  let key = `${counts.active + state.expectations.creations}/${counts.ready}/${succeeded}/${status.failed}`;
  key += `/${spec?.parallelism ?? ''}/${spec?.completions ?? ''}/${spec?.suspend === true ? 1 : 0}`;
  for (const c of status.conditions) key += `/${c.type}=${c.status}:${c.reason}`;
  return key;
}
