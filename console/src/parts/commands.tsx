import type { JobCommand } from '../api-types.ts';
import { utc } from '../format.ts';
import { EntryLink, Text } from './common.tsx';

// The commands jobfold decided for the Job, one row per decision, and whether each was sent to
// the cluster: terminations of a decided Job's pods always are; pod creations and status
// writes only for Jobs whose spec.managedBy names jobfold (otherwise computed and logged).

export function Commands({ commands, managedBy, onOpen }: { commands: JobCommand[]; managedBy: string | null; onOpen: (seq: number) => void }) {
  if (commands.length === 0) return <p class="muted">No command was decided for this Job.</p>;
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
            <td>
              {c.dispatched
                ? <span class="badge state-Succeeded" title="published to the cluster's command queue">sent to the cluster</span>
                : <span class="badge" title={`not sent: ${managedBy === null ? 'the Job controller manages this Job' : `spec.managedBy is ${managedBy}`}`}>computed, not sent</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function What({ command }: { command: JobCommand }) {
  switch (command.type) {
    case 'TerminatePod':
      return (
        <>
          terminate {command.pods?.length ?? 0} pod(s) ({command.cause}: <Text value={command.reason} />):{' '}
          <Text value={(command.pods ?? []).slice(0, 8).map((p) => p.name).join(', ')} />
          {(command.pods?.length ?? 0) > 8 && ` and ${(command.pods?.length ?? 0) - 8} more`}
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
  }
}
