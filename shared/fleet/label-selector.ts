// A Kubernetes label selector in its string form, parsed as apimachinery's `labels.Parse` does
// (`kubectl get -l`): requirements joined by commas, each `key`, `!key`, `key=value` (or `==`),
// `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key>n` or `key<n`. Every requirement must
// hold. As upstream: `!=` and `notin` also match an object without the key. One parser for the
// fleet selections (`--selector`) and the Kubernetes API's `labelSelector` (functions/kube).

export type LabelOperator = 'exists' | '!' | 'in' | 'notin' | '=' | '!=' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

export type LabelSelector = readonly LabelRequirement[];

/** A selector text that does not parse, worded as upstream words it. */
export class LabelSelectorError extends Error {
  override name = 'LabelSelectorError';
}

type Token =
  | { readonly kind: 'id'; readonly text: string }
  | { readonly kind: 'op'; readonly text: '=' | '==' | '!=' | '!' | '(' | ')' | ',' | '>' | '<' }
  | { readonly kind: 'end' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
/**
 * Upstream's lexer (`isWhitespace` in apimachinery's selector.go) separates tokens at these four
 * only; any other character, a form feed or a no-break space included, belongs to an identifier
 * (and then fails the key or value check). One set for both loops, so none of them can stop on a
 * character the other does not consume.
 */
const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

function lex(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i] as string;
    if (WHITESPACE.has(c)) {
      i++;
      continue;
    }
    if (SPECIAL.has(c)) {
      const two = input.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        tokens.push({ kind: 'op', text: two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', text: c as '=' | '!' | '(' | ')' | ',' | '>' | '<' });
        i++;
      }
      continue;
    }
    let j = i;
    while (j < input.length && !SPECIAL.has(input[j] as string) && !WHITESPACE.has(input[j] as string)) j++;
    tokens.push({ kind: 'id', text: input.slice(i, j) });
    i = j;
  }
  tokens.push({ kind: 'end' });
  return tokens;
}

/** The selector's requirements (none for an empty text); LabelSelectorError when it does not parse. */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (text === undefined) return [];
  const tokens = lex(text);
  if (tokens.length === 1) return []; // nothing but separators: the empty selector, as upstream
  let at = 0;
  const peek = () => tokens[at] as Token;
  const next = () => tokens[at++] as Token;
  const fail = (message: string): never => {
    throw new LabelSelectorError(`unable to parse requirement: ${message}`);
  };
  const requirements: LabelRequirement[] = [];
  for (;;) {
    let token = next();
    let negated = false;
    if (token.kind === 'op' && token.text === '!') {
      negated = true;
      token = next();
    }
    if (token.kind !== 'id') fail(`found '${tokenText(token)}', expected: identifier`);
    const key = (token as { text: string }).text;
    checkKey(key);
    if (negated) {
      requirements.push({ key, operator: '!', values: [] });
    } else {
      const op = peek();
      if (op.kind === 'end' || (op.kind === 'op' && op.text === ',')) {
        requirements.push({ key, operator: 'exists', values: [] });
      } else if (op.kind === 'id' && (op.text === 'in' || op.text === 'notin')) {
        next();
        const open = next();
        if (open.kind !== 'op' || open.text !== '(') fail(`found '${tokenText(open)}', expected: '('`);
        const values: string[] = [];
        for (;;) {
          const value = next();
          if (value.kind === 'id') {
            values.push(value.text);
            const after = next();
            if (after.kind === 'op' && after.text === ')') break;
            if (after.kind !== 'op' || after.text !== ',') fail(`found '${tokenText(after)}', expected: ',' or ')'`);
          } else if (value.kind === 'op' && value.text === ',') {
            values.push('');
          } else if (value.kind === 'op' && value.text === ')') {
            if (values.length === 0) fail(`for 'in', 'notin' operators, values set can't be empty`);
            values.push('');
            break;
          } else {
            fail(`found '${tokenText(value)}', expected: ',', ')' or identifier`);
          }
        }
        values.forEach(checkValue);
        requirements.push({ key, operator: op.text === 'in' ? 'in' : 'notin', values });
      } else if (op.kind === 'op' && ['=', '==', '!=', '>', '<'].includes(op.text)) {
        next();
        const valueToken = peek();
        let value = '';
        if (valueToken.kind === 'id') value = (next() as { text: string }).text;
        else if (!(valueToken.kind === 'end' || (valueToken.kind === 'op' && valueToken.text === ','))) fail(`found '${tokenText(valueToken)}', expected: identifier`);
        if (op.text === '>' || op.text === '<') {
          if (!/^-?\d{1,18}$/.test(value)) fail(`for 'Gt', 'Lt' operators, the value must be an integer`);
          requirements.push({ key, operator: op.text === '>' ? 'gt' : 'lt', values: [value] });
        } else {
          checkValue(value);
          requirements.push({ key, operator: op.text === '!=' ? '!=' : '=', values: [value] });
        }
      } else {
        fail(`found '${tokenText(op)}', expected: '=', '!=', '==', 'in', notin'`);
      }
    }
    const separator = next();
    if (separator.kind === 'end') break;
    if (separator.kind !== 'op' || separator.text !== ',') fail(`found '${tokenText(separator)}', expected: ',' or 'end of string'`);
  }
  return requirements;
}

function tokenText(token: Token): string {
  return token.kind === 'end' ? '' : token.text;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A qualified name: `[prefix/]name`, name ≤ 63 alphanumerics, '-', '_', '.'; prefix a DNS subdomain. */
function checkKey(key: string): void {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  const invalid = (why: string): never => {
    throw new LabelSelectorError(`unable to parse requirement: key: Invalid value: "${key.slice(0, 320)}": ${why}`);
  };
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) invalid('prefix part must be a lowercase RFC 1123 subdomain');
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) {
    invalid("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters");
  }
}

function checkValue(value: string): void {
  if (value === '') return;
  if (value.length > 63 || !NAME.test(value)) {
    throw new LabelSelectorError(
      `unable to parse requirement: values[0]: Invalid value: "${value.slice(0, 320)}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters`,
    );
  }
}

export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector.every((requirement) => matchesRequirement(requirement, labels ?? {}));
}

function matchesRequirement({ key, operator, values }: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, key);
  const value = labels[key];
  switch (operator) {
    case 'exists': return has;
    case '!': return !has;
    case 'in':
    case '=': return has && values.includes(value as string);
    case 'notin':
    case '!=': return !has || !values.includes(value as string);
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d{1,18}$/.test(value as string)) return false;
      const number = Number(value);
      const bound = Number(values[0]);
      return operator === 'gt' ? number > bound : number < bound;
    }
  }
}

/** The one value a selector requires `key` to have (`key=v` or `key in (v)`), if it pins one. */
export function pinnedLabel(selector: LabelSelector, key: string): string | undefined {
  for (const { key: k, operator, values } of selector) {
    if (k === key && (operator === '=' || operator === 'in') && values.length === 1) return values[0];
  }
  return undefined;
}

/** The selector written back in its canonical string form (`labels.Selector.String`). */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector
    .map(({ key, operator, values }) => {
      switch (operator) {
        case 'exists':
          return key;
        case '!':
          return `!${key}`;
        case '=':
        case '!=':
          return `${key}${operator}${values[0] ?? ''}`;
        case 'in':
        case 'notin':
          return `${key} ${operator} (${values.join(',')})`;
        case 'gt':
          return `${key}>${values[0] ?? ''}`;
        case 'lt':
          return `${key}<${values[0] ?? ''}`;
      }
    })
    .join(',');
}
