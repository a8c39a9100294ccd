import type { JobSummary, StreamId } from '../../../shared/log/event-store.ts';
import type { QueryDeps, QueryRoute } from '../http.ts';
import { objectIdentity } from '../object-log.ts';
import { decodeCommandsCursor, encodeCommandsCursor, type CommandsCursor } from './commands-cursor.ts';
import { commandsPage, type CommandSource } from './commands-page.ts';
import { CommandsQuerySchema, type CommandsQuery } from './commands-params.ts';
import { jobCommandSource, jobManagedBy } from './job-commands.ts';
import { jobSetCommandSource } from './jobset-commands.ts';
import { objectRoute } from '../routes/object-route.ts';

// `GET …/jobs/{name}/commands` and `…/jobsets/{name}/commands`: every command jobfold decided
// for the object, oldest first, paged with a signed cursor (commands-cursor.ts) and bounded per
// page (commands-page.ts). The Job and JobSet views list only the commands of their last
// 5,000 entries (`commandsFrom`); this list reaches all of them.

/** `GET …/jobs/{name}/commands?uid=&after=&limit=`. */
export const jobCommandsRoute: QueryRoute = objectRoute('Job', '/commands', CommandsQuerySchema, async ({ summary, stream }, query, deps) => {
  const from = startOf(deps, stream, query);
  const managedBy = from.managedBy !== undefined ? from.managedBy : (await jobManagedBy(deps, stream)) ?? null;
  return page(deps, summary, stream, { ...from, managedBy }, query.limit, jobCommandSource(managedBy ?? undefined, summary.uid));
});

/** `GET …/jobsets/{name}/commands?uid=&after=&limit=`. */
export const jobSetCommandsRoute: QueryRoute = objectRoute('JobSet', '/commands', CommandsQuerySchema, ({ summary, stream }, query, deps) =>
  page(deps, summary, stream, startOf(deps, stream, query), query.limit, jobSetCommandSource));

/** Where the page starts: the cursor's position, or the first command. */
function startOf(deps: QueryDeps, stream: StreamId, query: CommandsQuery): CommandsCursor {
  return query.after === undefined ? { after: 0, pods: 0 } : decodeCommandsCursor(deps.cursorKey, stream, query.after);
}

/** One page from `from`; its next cursor carries what `from` carries beside the position. */
async function page<Item>(deps: QueryDeps, summary: JobSummary, stream: StreamId, from: CommandsCursor, limit: number, source: CommandSource<Item>) {
  const { items, head, next, through } = await commandsPage(deps.store, stream, source, from, limit);
  return {
    object: objectIdentity(summary),
    head,
    through,
    items,
    ...(next === undefined ? {} : { nextCursor: encodeCommandsCursor(deps.cursorKey, stream, { ...from, ...next }) }),
  };
}
