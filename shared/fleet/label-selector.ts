// A Kubernetes label selector in its string form (`kubectl get -l`, `labels.Parse`): requirements
// joined by commas, each `key`, `!key`, `key=value` (or `==`), `key!=value`, `key in (a,b)` or
// `key notin (a,b)`. Every requirement must hold. As upstream: `!=` and `notin` also match a
// Job without the key.

export type LabelRequirement =
  | { readonly key: string; readonly op: 'exists' | 'notExists' }
  | { readonly key: string; readonly op: 'in' | 'notIn'; readonly values: readonly string[] };

export type LabelSelector = readonly LabelRequirement[];

/** A selector text that does not parse: what was wrong, in upstream's manner. */
export class LabelSelectorError extends Error {
  override name = 'LabelSelectorError';
}

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

export function parseLabelSelector(text: string): LabelSelector {
  const requirements: LabelRequirement[] = [];
  for (const part of splitRequirements(text)) {
    const requirement = parseRequirement(part.trim());
    requirements.push(requirement);
  }
  return requirements;
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector.every((r) => {
    const value = labels?.[r.key];
    switch (r.op) {
      case 'exists':
        return value !== undefined;
      case 'notExists':
        return value === undefined;
      case 'in':
        return value !== undefined && r.values.includes(value);
      case 'notIn':
        return value === undefined || !r.values.includes(value);
    }
  });
}

/** The selector written back in its canonical string form. */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector
    .map((r) => {
      switch (r.op) {
        case 'exists':
          return r.key;
        case 'notExists':
          return `!${r.key}`;
        case 'in':
          return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(',')})`;
        case 'notIn':
          return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${r.values.join(',')})`;
      }
    })
    .join(',');
}

/** Commas separate requirements, except inside a set's parentheses. */
function splitRequirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (depth < 0) throw new LabelSelectorError(`unexpected ")" in ${JSON.stringify(text)}`);
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (depth !== 0) throw new LabelSelectorError(`unclosed "(" in ${JSON.stringify(text)}`);
  parts.push(current);
  if (parts.some((p) => p.trim() === '')) throw new LabelSelectorError(`empty requirement in ${JSON.stringify(text)}`);
  return parts;
}

function parseRequirement(text: string): LabelRequirement {
  const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(text);
  if (set) {
    const values = (set[3] as string).split(',').map((v) => v.trim());
    return { key: key(set[1] as string), op: set[2] === 'in' ? 'in' : 'notIn', values: values.map(value) };
  }
  const equality = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(text);
  if (equality) {
    const op = equality[2] === '!=' ? 'notIn' : 'in';
    return { key: key(equality[1] as string), op, values: [value(equality[3] as string)] };
  }
  if (text.startsWith('!')) return { key: key(text.slice(1).trim()), op: 'notExists' };
  return { key: key(text), op: 'exists' };
}

function key(text: string): string {
  if (!KEY.test(text) || text.length > 316) throw new LabelSelectorError(`invalid label key ${JSON.stringify(text)}: a qualified name such as app or example.com/team`);
  return text;
}

function value(text: string): string {
  if (!VALUE.test(text) || text.length > 63) throw new LabelSelectorError(`invalid label value ${JSON.stringify(text)}: up to 63 letters, digits, "-", "_", "." starting and ending with a letter or digit`);
  return text;
}
