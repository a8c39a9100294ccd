import type { JobExplanation } from '../../../functions/query/api-types.ts';
import { EntryLink, Text } from './common.tsx';

// The why: each condition's sentence, the event that tipped it and the decision that set it,
// and its evidence; every log position in the evidence links to that entry.

/** Evidence fields that hold a log position. */
const SEQ_FIELDS = new Set(['tippedBy', 'decidedBy', 'podSeq']);

export function Why({ explanation, onOpen }: { explanation: JobExplanation; onOpen: (seq: number) => void }) {
  if (explanation.conditions.length === 0 && explanation.rejection.length === 0) {
    return <p class="muted">No outcome yet: no condition has been decided. <Text value={explanation.summary} /></p>;
  }
  return (
    <div class="why">
      {explanation.rejection.length > 0 && (
        <div class="rejection">
          <h3>Rejected</h3>
          <ul>{explanation.rejection.map((line) => <li><Text value={line} /></li>)}</ul>
        </div>
      )}
      <ol class="why-conditions">
        {explanation.conditions.map((c) => (
          <li>
            <p class="sentence"><Text value={c.sentence} /></p>
            <p class="links">
              {c.tippingEvent && (
                <>
                  Tipped by <EntryLink seq={c.tippingEvent.seq} onOpen={onOpen}>{`${c.tippingEvent.type} #${c.tippingEvent.seq}`}</EntryLink>
                  {' '}(observed {c.tippingEvent.at}){c.decidedBy !== undefined ? ' · ' : ''}
                </>
              )}
              {c.decidedBy !== undefined && (
                <>Decided by <EntryLink seq={c.decidedBy} onOpen={onOpen}>{`JobConditionChanged #${c.decidedBy}`}</EntryLink></>
              )}
            </p>
            {c.evidence && Object.keys(c.evidence).length > 0 && (
              <dl class="evidence">
                {Object.entries(c.evidence).map(([key, value]) => (
                  <>
                    <dt>{key}</dt>
                    <dd>
                      {SEQ_FIELDS.has(key) && typeof value === 'number'
                        ? <EntryLink seq={value} onOpen={onOpen} />
                        : <Text value={typeof value === 'string' ? value : JSON.stringify(value)} />}
                    </dd>
                  </>
                ))}
              </dl>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
