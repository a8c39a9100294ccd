// A merge patch as YAML, the way it goes into a manifest (`spec:` … with two-space indents and
// lists as `- `). The patches are plain JSON data; every string is written plain when YAML reads
// it back as that same string, and double-quoted (a JSON string, which is valid YAML) otherwise.
// Small enough that the console needs no YAML library (test/unit/advise checks the round trip
// with the `yaml` package).

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const YAML_WORDS = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

export function toYaml(value: unknown): string {
  return `${lines(value, 0).join('\n')}\n`;
}

function lines(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}[]`];
    return value.flatMap((item) => {
      const [first = '', ...rest] = lines(item, indent + 2);
      return [`${pad}- ${first.trimStart()}`, ...rest];
    });
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [`${pad}{}`];
    return entries.flatMap(([key, item]) => {
      if (isScalar(item) || isEmpty(item)) return [`${pad}${scalar(key)}: ${isScalar(item) ? scalar(item) : Array.isArray(item) ? '[]' : '{}'}`];
      return [`${pad}${scalar(key)}:`, ...lines(item, Array.isArray(item) ? indent : indent + 2)];
    });
  }
  return [`${pad}${scalar(value)}`];
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return PLAIN.test(value) && !YAML_WORDS.test(value) ? value : JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  return String(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): boolean => typeof value !== 'object' || value === null;
const isEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length === 0 : isRecord(value) && Object.keys(value).length === 0);
