import type { JobCommand } from '../../../functions/query/api-types.ts';
import { utc } from '../format.ts';
import { EntryLink, Text } from './common.tsx';

// The commands jobfold decided for the Job, one row per decision, and how far each got, in the
// words of what the service knows: "computed, not sent" (a Job jobfold does not manage: logged
// only); "queued to send" (in the outbox with the decision, published to the cluster's command
// queue by the publisher; the forwarder sends no acknowledgement); and for pod commands what
// the cluster reported afterwards: the pods seen deleting, or seen created with the command's
// id. A pod deleted by someone else looks the same, so this is "observed", never "applied".

export function Commands({ commands, managedBy, onOpen, from = 1 }: {
  commands: JobCommand[];
  managedBy: string | null;
  onOpen: (seq: number) => void;
  /** The first log position `commands` covers. */
  from?: number;
}) {
  if (commands.length === 0) return <p class="muted">No command was decided for this Job{from > 1 ? ` at #${from} or later` : ''}.</p>;
  return (
    <table class="commands">
      <thead>
        <tr>
          <th scope="col">Entry</th><th scope="col">Time</th><th scope="col">Command</th><th scope="col">What</th><th scope="col">Delivery</th>
        </tr>
      </thead>
      <tbody>
        {commands.map((c) => (
          <tr>
            <td><EntryLink seq={c.seq} onOpen={onOpen}>#{c.seq}</EntryLink></td>
            <td>{utc(c.at)}</td>
            <td>{c.type}</td>
            <td><What command={c} /></td>
            <td class="delivery">
              {c.dispatched
                ? <>
                    <span class="badge queued" title="Committed to the outbox with the decision; the publisher puts it on the cluster's command queue. The forwarder sends no acknowledgement.">queued to send</span>
                    <Observed command={c} onOpen={onOpen} />
                  </>
                : <span class="badge" title={`not sent: ${managedBy === null ? 'the Job controller manages this Job' : `spec.managedBy is ${managedBy}`}`}>computed, not sent</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const OBSERVED = {
  TerminatePod: {
    what: 'deletion',
    title: 'Pods of this command the cluster later reported with a deletionTimestamp or deleted (by this command or by anyone else)',
  },
  CreatePod: {
    what: 'pod created',
    title: "Pods the cluster later reported carrying this decision's command id (jobfold.io/command-id), which the forwarder sets on the pods it creates",
  },
  RemovePodFinalizer: {
    what: 'finalizer removal',
    title: 'Pods the cluster later reported without the batch.kubernetes.io/job-tracking finalizer, or deleted',
  },
} as const;

/** What the cluster reported after the decision about the command's pods. */
function Observed({ command, onOpen }: { command: JobCommand; onOpen: (seq: number) => void }) {
  if (command.type === 'UpdateJobStatus') return <div class="muted observed">not checked against the Job the cluster reports</div>;
  // A page of `…/commands` does not say what the cluster reported; the Job view does.
  const observed = 'observed' in command ? command.observed : undefined;
  if (!observed) return null;
  const { what, title } = OBSERVED[command.type];
  const all = observed.count === observed.of;
  return (
    <div class={`observed${all ? ' all' : ''}`} title={title}>
      {observed.count === 0
        ? <span class="muted">no {what} observed yet</span>
        : <>
            {what} observed: {observed.count.toLocaleString('en')} of {observed.of.toLocaleString('en')}
            {observed.lastSeq !== undefined && <> (<EntryLink seq={observed.lastSeq} onOpen={onOpen}>{observed.count > 1 ? 'latest ' : ''}#{observed.lastSeq}</EntryLink>)</>}
          </>}
    </div>
  );
}

function What({ command }: { command: JobCommand }) {
  switch (command.type) {
    case 'TerminatePod':
      return (
        <>
          terminate {command.pods.length} pod(s)<Slice command={command} /> ({command.cause}: <Text value={command.reason} />):{' '}
          <Text value={command.pods.slice(0, 8).map((p) => p.name).join(', ')} />
          {command.pods.length > 8 && ` and ${command.pods.length - 8} more`}
        </>
      );
    case 'CreatePod':
      return (
        <>
          create {command.count} pod(s)
          {command.indexes && command.indexes.length > 0 && <> for indexes {command.indexes.slice(0, 20).join(', ')}{command.indexes.length > 20 ? ', …' : ''}</>}
        </>
      );
    case 'UpdateJobStatus':
      return <>write the Job status</>;
    case 'RemovePodFinalizer':
      return (
        <>
          remove the tracking finalizer of {command.pods.length} pod(s)<Slice command={command} />:{' '}
          <Text value={command.pods.slice(0, 8).map((p) => p.name).join(', ')} />
          {command.pods.length > 8 && ` and ${command.pods.length - 8} more`}
        </>
      );
  }
}

/** Which of a decision's pods an item of `…/commands` lists, when a page holds only some. */
function Slice({ command }: { command: JobCommand }) {
  if (!('podsFrom' in command)) return null;
  const { podsFrom, podsOf, pods } = command;
  if (podsFrom === 0 && pods.length === podsOf) return null;
  return <>{` (pods ${(podsFrom + 1).toLocaleString('en')}–${(podsFrom + pods.length).toLocaleString('en')} of the decision's ${podsOf.toLocaleString('en')})`}</>;
}
