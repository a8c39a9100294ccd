/**
 * The two pieces of Go's `strconv` that the index parsers need to match upstream exactly:
 * `Atoi` (what parses, what does not) and `%q` quoting (the text of validation messages).
 */

const PLUS = 0x2b;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** Decimal digits of 2^63 − 1 and −2^63, Go's `int` range on 64-bit platforms. */
const INT64_DIGITS = 19;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN_MAGNITUDE = 9223372036854775808n;

/**
 * Parses `text.slice(start, end)` as Go's `strconv.Atoi` would: an optional `+` or `-`, then
 * one or more ASCII digits, within the int64 range. Returns undefined where Atoi returns an
 * error. Values beyond 2^53 come back rounded to the nearest double, which is fine for
 * comparing with a completion count. Reads the range in place, so parsing a 64 KiB list
 * allocates no substrings.
 */
export function parseGoInt(text: string, start = 0, end = text.length): number | undefined {
  let at = start;
  const sign = at < end ? text.charCodeAt(at) : -1;
  const negative = sign === MINUS;
  if (negative || sign === PLUS) at++;
  if (at === end) return undefined;
  let value = 0;
  let firstSignificant = -1;
  for (let i = at; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < ZERO || code > NINE) return undefined;
    if (firstSignificant < 0 && code !== ZERO) firstSignificant = i;
    value = value * 10 + (code - ZERO);
  }
  const digits = firstSignificant < 0 ? 0 : end - firstSignificant;
  // Go reports "value out of range" for anything outside int64; only 19 digits need a check.
  if (digits > INT64_DIGITS) return undefined;
  if (digits === INT64_DIGITS) {
    const magnitude = BigInt(text.slice(firstSignificant, end));
    if (magnitude > (negative ? INT64_MIN_MAGNITUDE : INT64_MAX)) return undefined;
  }
  // Past 2^53 the digit loop accumulates rounding; let Number round the digits once.
  if (value > Number.MAX_SAFE_INTEGER) value = Number(text.slice(firstSignificant, end));
  return negative ? -value : value;
}

const GO_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NEEDS_QUOTING = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]|["\\]/u;

/**
 * Quotes a string as Go's `fmt` verb `%q` (`strconv.Quote`) does: double quotes, C-style
 * escapes, `\xNN` for other ASCII controls and `\uNNNN`/`\UNNNNNNNN` for other
 * non-printable code points. A lone surrogate becomes U+FFFD, as it would after the JSON
 * decoding that brought the string to Go.
 */
export function quoteGo(text: string): string {
  if (!NEEDS_QUOTING.test(text)) return `"${text}"`;
  let quoted = '"';
  for (const char of text) {
    const escape = GO_ESCAPES[char];
    if (escape !== undefined) {
      quoted += escape;
      continue;
    }
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) quoted += '\ufffd';
    else if (PRINTABLE.test(char)) quoted += char;
    else if (code < 0x20 || code === 0x7f) quoted += `\\x${hex(code, 2)}`;
    else if (code < 0x10000) quoted += `\\u${hex(code, 4)}`;
    else quoted += `\\U${hex(code, 8)}`;
  }
  return `${quoted}"`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}
