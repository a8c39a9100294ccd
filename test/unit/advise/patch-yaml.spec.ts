import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from '../../../shared/advise/patch-yaml.ts';

describe('a patch as YAML', () => {
  it('reads as a manifest does', () => {
    const patch = {
      spec: {
        podFailurePolicy: { rules: [{ name: 'ExitCode3', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [3, 42] } }] },
        podReplacementPolicy: 'Failed',
        successPolicy: { rules: [{ succeededIndexes: '0' }] },
        backoffLimit: 0,
      },
    };
    expect(toYaml(patch)).toBe(`spec:
  podFailurePolicy:
    rules:
    - name: ExitCode3
      action: FailJob
      onExitCodes:
        containerName: main
        operator: In
        values:
        - 3
        - 42
  podReplacementPolicy: Failed
  successPolicy:
    rules:
    - succeededIndexes: "0"
  backoffLimit: 0
`);
  });

  it('round-trips any JSON value through a YAML parser (property)', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
    })).value;
    fc.assert(fc.property(fc.dictionary(key, json, { minKeys: 1, maxKeys: 4 }), (value) => {
      expect(parse(toYaml(value))).toEqual(value);
    }), { numRuns: 500 });
  });
});
