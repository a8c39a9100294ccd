// The Kubernetes API's selectors: labelSelector by the one parser (shared/fleet/label-selector.ts),
// fieldSelector as apimachinery's fields.ParseSelector parses it, matched against an object's
// selectable fields. A selector that does not parse is a 400 naming the parameter.

import { LabelSelectorError, parseLabelSelector as parseSelector, type LabelSelector } from '../../shared/fleet/label-selector.ts';
import { badRequest } from './status.ts';

export { matchesLabels, pinnedLabel, type LabelRequirement, type LabelSelector } from '../../shared/fleet/label-selector.ts';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

export type FieldSelector = readonly FieldRequirement[];

const MAX_SELECTOR_LENGTH = 8192;

/** labelSelector → requirements; 400 at `labelSelector` when it does not parse. */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (text !== undefined && text.length > MAX_SELECTOR_LENGTH) throw badRequest(`labelSelector is longer than ${MAX_SELECTOR_LENGTH} characters`, 'labelSelector');
  try {
    return parseSelector(text);
  } catch (error) {
    if (error instanceof LabelSelectorError) throw badRequest(error.message, 'labelSelector');
    throw error;
  }
}

/** fieldSelector → requirements; 400 when it does not parse or names a field `supported` lacks. */
export function parseFieldSelector(text: string | undefined, supported: ReadonlySet<string>): FieldSelector {
  if (text === undefined || text.trim() === '') return [];
  if (text.length > MAX_SELECTOR_LENGTH) throw badRequest(`fieldSelector is longer than ${MAX_SELECTOR_LENGTH} characters`, 'fieldSelector');
  const requirements: FieldRequirement[] = [];
  for (const term of splitUnescaped(text, ',')) {
    const match = /^(.*?)(==|!=|=)(.*)$/s.exec(unescapedOperatorView(term));
    if (match === null) throw badRequest(`invalid selector: '${text.slice(0, 320)}'; can't understand '${term.slice(0, 320)}'`, 'fieldSelector');
    const [, keyView = '', op = '='] = match;
    const field = unescapeField(term.slice(0, keyView.length)).trim();
    const value = unescapeField(term.slice(keyView.length + op.length));
    if (!supported.has(field)) {
      throw badRequest(`field label not supported: ${field.slice(0, 320)} (supported: ${[...supported].join(', ')})`, 'fieldSelector');
    }
    requirements.push({ field, operator: op === '!=' ? '!=' : '=', value });
  }
  return requirements;
}

export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return selector.every(({ field, operator, value }) => (operator === '=' ? fields[field] === value : fields[field] !== value));
}

/** The value a selector requires `field` to equal, if any. */
export function pinnedField(selector: FieldSelector, field: string): string | undefined {
  return selector.find((r) => r.field === field && r.operator === '=')?.value;
}

// `a\,b=c` is one term; escapes are `\\`, `\,`, `\=` and `\!`.
function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && i + 1 < text.length) {
      current += c + (text[i + 1] as string);
      i++;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** The term with escaped characters masked, so the operator search skips them. */
function unescapedOperatorView(term: string): string {
  return term.replace(/\\./gs, '__');
}

function unescapeField(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}
