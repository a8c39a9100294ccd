/**
 * Go formatting the way upstream's messages print values: `%q` for strings and string lists,
 * `%v` for numbers, `regexError` for pattern failures. jobfold repeats upstream's messages
 * verbatim, so these reproduce Go's output byte for byte for the values validation reports.
 */
import { quoteGo } from '../../indexes/go-strconv.ts';

/** Go's `%q` of a string (strconv.Quote); one implementation, shared with the index parser. */
export const goQuote = quoteGo;

/** Go's `%q` of a `[]string`, e.g. `["In" "NotIn"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** The detail of `field.NotSupported`: `supported values: "In", "NotIn"`. */
export function supportedValues(values: readonly string[]): string {
  return `supported values: ${values.map(goQuote).join(', ')}`;
}

/**
 * Go's rendering of a bad value in `field.Error.ErrorBody`: numbers and booleans as `%v`,
 * strings as `%q`, unset pointers as `"null"`, integer lists as `%#v` (`[]int32{1, 0, 2}`).
 * Structs are printed by Go as `%#v` dumps with pointer addresses, which cannot be reproduced;
 * they are rendered as JSON instead.
 */
export function formatBadValue(value: unknown): string {
  if (value === undefined || value === null) return goQuote('null');
  if (typeof value === 'string') return goQuote(value);
  // An int64 past 2^53 as Go prints it: every digit of the integer (JS would write 9223372036854776000).
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) return BigInt(value).toString();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) {
    return `[]int32{${value.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** apimachinery's `validation.RegexError`, including its doubled spaces before `or`. */
export function regexError(message: string, pattern: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${pattern}')`;
  const listed = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${listed}regex used for validation is '${pattern}')`;
}

/** Go's `len` of a string: its UTF-8 byte count, which upstream's length limits count. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
    } else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else {
      bytes += 2; // 3 bytes; a lone surrogate becomes U+FFFD, also 3 bytes
    }
  }
  return bytes;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
