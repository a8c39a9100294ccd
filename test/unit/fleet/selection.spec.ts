import { describe, expect, it } from 'vitest';
import { formatLabelSelector, parseLabelSelector } from '../../../shared/fleet/label-selector.ts';
import { parseSelection, selectionText, SelectionError } from '../../../shared/fleet/selection.ts';

// A fleet selection's --selector is parsed by the same parser as the Kubernetes API's
// labelSelector (test/unit/kube/selectors.spec.ts covers its grammar): same meaning, same errors.

describe('a fleet selection', () => {
  it('reads --selector as kubectl -l reads it, and writes it back in canonical form', () => {
    const selection = parseSelection({ selector: 'team=ml, tier notin (dev,test),!legacy,gpu' });
    expect(selectionText(selection).selector).toBe('team=ml,tier notin (dev,test),!legacy,gpu');
    const text = 'a=b,c!=d,e in (f,g),h notin (i),j,!k,l>3,m<4';
    expect(formatLabelSelector(parseLabelSelector(text))).toBe(text);
  });

  it('refuses a selector that does not parse at its field, worded as upstream', () => {
    const refusal = (() => {
      try {
        parseSelection({ selector: 'team in (ml' });
      } catch (error) {
        return error;
      }
    })() as SelectionError;
    expect(refusal).toBeInstanceOf(SelectionError);
    expect(refusal.field).toBe('selector');
    expect(refusal.message).toBe("unable to parse requirement: found '', expected: ',' or ')'");
  });
});
