import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KubeError } from '../../../functions/kube/status.ts';
import {
  matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, pinnedField, pinnedLabel,
} from '../../../functions/kube/selectors.ts';

// Label and field selectors as apimachinery parses and matches them.

const labels = { 'job-name': 'train', 'batch.kubernetes.io/controller-uid': 'u1', tier: 'gpu', size: '8' };
const matches = (selector: string, on: Record<string, string> = labels) => matchesLabels(parseLabelSelector(selector), on);

describe('label selectors', () => {
  it('matches equality, inequality, sets, existence and integer comparisons as kubectl -l writes them', () => {
    expect(matches('job-name=train')).toBe(true);
    expect(matches('job-name==train,tier=gpu')).toBe(true);
    expect(matches('job-name!=train')).toBe(false);
    expect(matches('absent!=x')).toBe(true); // != matches objects without the label
    expect(matches('tier in (cpu, gpu)')).toBe(true);
    expect(matches('tier notin (gpu)')).toBe(false);
    expect(matches('tier')).toBe(true);
    expect(matches('!tier')).toBe(false);
    expect(matches('!absent')).toBe(true);
    expect(matches('size>4,size<9')).toBe(true);
    expect(matches('size>8')).toBe(false);
    expect(matches('batch.kubernetes.io/controller-uid=u1')).toBe(true);
    expect(matches('')).toBe(true);
    expect(matches('empty=', { empty: '' })).toBe(true);
  });

  it('says which value a selector pins a key to', () => {
    expect(pinnedLabel(parseLabelSelector('job-name=train,tier in (gpu)'), 'job-name')).toBe('train');
    expect(pinnedLabel(parseLabelSelector('tier in (gpu)'), 'tier')).toBe('gpu');
    expect(pinnedLabel(parseLabelSelector('tier in (a,b)'), 'tier')).toBeUndefined();
    expect(pinnedLabel(parseLabelSelector('job-name!=train'), 'job-name')).toBeUndefined();
  });

  it('refuses what does not parse with a 400 naming labelSelector', () => {
    for (const bad of ['=x', 'a=b=c', 'a in (b', 'a in ()', 'a in b', '!', 'a,', 'a==(b)', 'size>x', 'Bad Key=x', `${'k'.repeat(64)}=v`, `k=${'v'.repeat(64)}`, 'UPPER/x=y', 'k=-v']) {
      let thrown: unknown;
      try {
        parseLabelSelector(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(KubeError);
      expect((thrown as KubeError).code, bad).toBe(400);
      expect((thrown as KubeError).details?.causes?.[0]?.field, bad).toBe('labelSelector');
    }
  });

  it('lexes a form feed, vertical tab or no-break space as part of an identifier, as upstream does (only space, tab, CR and LF separate)', () => {
    // Before, the identifier loop stopped at any \s while the skip loop took only four of them: the
    // lexer stood still on a form feed and grew its token list until the process ran out of memory.
    for (const odd of ['\f', '\v', '\u00a0', '\u2028', '\ufeff']) {
      expect(() => parseLabelSelector(`tier${odd}=gpu`), JSON.stringify(odd)).toThrow(/key: Invalid value/);
      expect(() => parseLabelSelector(`${odd}`), JSON.stringify(odd)).toThrow(KubeError);
      expect(() => parseLabelSelector(`tier=${odd}`), JSON.stringify(odd)).toThrow(/values\[0\]: Invalid value/);
    }
    expect(matches(' tier = gpu ,\tsize\r\n> 4')).toBe(true);
  });

  it('either parses or refuses with a 400, whatever the text (any code point, lone surrogates included)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (text) => {
      try {
        parseLabelSelector(text);
      } catch (error) {
        expect(error).toBeInstanceOf(KubeError);
        expect((error as KubeError).code).toBe(400);
      }
    }));
  });
});

describe('field selectors', () => {
  const supported = new Set(['metadata.name', 'involvedObject.name', 'status.phase']);

  it('matches = and != on the fields a resource serves, with escapes', () => {
    const fields = { 'metadata.name': 'a,b', 'involvedObject.name': 'train', 'status.phase': 'Running' };
    expect(matchesFields(parseFieldSelector('involvedObject.name=train', supported), fields)).toBe(true);
    expect(matchesFields(parseFieldSelector('involvedObject.name==train,status.phase!=Failed', supported), fields)).toBe(true);
    expect(matchesFields(parseFieldSelector('status.phase!=Running', supported), fields)).toBe(false);
    expect(matchesFields(parseFieldSelector('metadata.name=a\\,b', supported), fields)).toBe(true);
    expect(pinnedField(parseFieldSelector('involvedObject.name=train', supported), 'involvedObject.name')).toBe('train');
  });

  it('refuses a field the resource does not serve, and terms without an operator', () => {
    expect(() => parseFieldSelector('spec.foo=x', supported)).toThrow(/field label not supported: spec.foo/);
    expect(() => parseFieldSelector('metadata.name', supported)).toThrow(/can't understand 'metadata.name'/);
  });
});
