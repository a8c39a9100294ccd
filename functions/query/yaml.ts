/**
 * YAML for plain JSON data (objects, arrays, strings, numbers, booleans, null), in block style
 * with two-space indents. Strings stay plain when that is unambiguous in YAML 1.1 and 1.2;
 * anything else is written as a JSON string, which is valid YAML. Key order is kept, so the
 * output is stable and diffs read well. Used for docs/openapi.yaml.
 */
export function toYaml(value: unknown): string {
  return `${block(value, 0).join('\n')}\n`;
}

// Plain scalars must not start with an indicator, contain ": " or " #", look like another type
// (true, no, 1.0, null, ~) or carry surrounding spaces.
const PLAIN = /^[A-Za-z_/$(][\x20-\x7E]*$/;
const RESERVED = /^(true|false|yes|no|on|off|y|n|null)$/i;

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not JSON data: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return isPlain(value) ? value : JSON.stringify(value);
  throw new TypeError(`not JSON data: ${typeof value}`);
}

function isPlain(text: string): boolean {
  return (
    PLAIN.test(text) &&
    !RESERVED.test(text) &&
    !text.includes(': ') &&
    !text.includes(' #') &&
    !text.endsWith(':') &&
    text.trim() === text
  );
}

const isCollection = (value: unknown): value is object => typeof value === 'object' && value !== null;
const isEmpty = (value: object): boolean => (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);

/** The lines of a value written at `indent`; a scalar or empty collection is one line. */
function block(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (!isCollection(value)) return [pad + scalar(value)];
  if (isEmpty(value)) return [pad + (Array.isArray(value) ? '[]' : '{}')];
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const lines = block(item, indent + 2);
      // The first line of the item goes after the dash: `- key: value`, `- text`.
      return [`${pad}- ${(lines[0] ?? '').trimStart()}`, ...lines.slice(1)];
    });
  }
  return Object.entries(value).flatMap(([key, item]) => {
    const name = `${pad}${isPlain(key) ? key : JSON.stringify(key)}:`;
    if (!isCollection(item) || isEmpty(item)) return [`${name} ${block(item, 0)[0]}`];
    return [name, ...block(item, indent + 2)];
  });
}
