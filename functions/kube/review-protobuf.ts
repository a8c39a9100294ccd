// The two review objects kubectl POSTs as Kubernetes protobuf (`kubectl auth can-i` sends
// `Content-Type: application/vnd.kubernetes.protobuf`), read into the JSON shape the API server
// would have decoded them to. The envelope (apimachinery runtime/serializer/protobuf): the magic
// `k8s\0`, then a runtime.Unknown {1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding,
// 4 contentType}; `raw` is the object (k8s.io/api/authorization/v1 generated.proto):
// SelfSubjectAccessReview {1 metadata, 2 spec {1 resourceAttributes {1 namespace, 2 verb,
// 3 group, 4 version, 5 resource, 6 subresource, 7 name}, 2 nonResourceAttributes {1 path,
// 2 verb}}, 3 status}; SelfSubjectRulesReview {1 metadata, 2 spec {1 namespace}, 3 status}.
// Only those strings are read; every other field is skipped by its wire type. Anything that is
// not such a message is refused with what was wrong, never guessed at.

const MAGIC = Buffer.from('k8s\0', 'latin1');
const RESOURCE_FIELDS = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'] as const;
const NON_RESOURCE_FIELDS = ['path', 'verb'] as const;

export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

/** The review in `body` as the JSON object it stands for: `{ apiVersion, kind, spec }`. */
export function decodeReview(body: Buffer): Record<string, unknown> {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) throw new ProtobufError('the body does not start with the Kubernetes protobuf magic "k8s\\0"');
  const unknown = fields(body.subarray(MAGIC.length));
  const typeMeta = fields(bytesOf(unknown, 1) ?? Buffer.alloc(0));
  const apiVersion = textOf(typeMeta, 1);
  const kind = textOf(typeMeta, 2);
  const encoding = textOf(unknown, 3) ?? '';
  if (encoding !== '') throw new ProtobufError(`contentEncoding "${encoding.slice(0, 64)}" is not supported`);
  const spec = fields(bytesOf(fields(bytesOf(unknown, 2) ?? Buffer.alloc(0)), 2) ?? Buffer.alloc(0));
  if (kind === 'SelfSubjectRulesReview') return { apiVersion, kind, spec: strings(spec, ['namespace']) };
  const resource = bytesOf(spec, 1);
  const nonResource = bytesOf(spec, 2);
  return {
    apiVersion, kind,
    spec: {
      ...(resource === undefined ? {} : { resourceAttributes: strings(fields(resource), RESOURCE_FIELDS) }),
      ...(nonResource === undefined ? {} : { nonResourceAttributes: strings(fields(nonResource), NON_RESOURCE_FIELDS) }),
    },
  };
}

/** Field number → its last length-delimited value (proto3: the last one wins); other wire types skipped. */
function fields(message: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let at = 0;
  while (at < message.length) {
    const [key, afterKey] = varint(message, at);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    at = afterKey;
    if (wire === 0) at = varint(message, at)[1];
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const [length, start] = varint(message, at);
      if (start + length > message.length) throw new ProtobufError(`field ${field} is ${length} bytes long, past the end of its message`);
      out.set(field, message.subarray(start, start + length));
      at = start + length;
    } else throw new ProtobufError(`field ${field} has wire type ${wire}, which no review field has`);
    if (at > message.length) throw new ProtobufError(`field ${field} runs past the end of its message`);
  }
  return out;
}

function varint(buffer: Buffer, start: number): [number, number] {
  let value = 0;
  for (let at = start, shift = 0; at < buffer.length && shift < 64; at++, shift += 7) {
    const byte = buffer[at] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      if (!Number.isSafeInteger(value)) throw new ProtobufError('a varint is larger than 2^53');
      return [value, at + 1];
    }
  }
  throw new ProtobufError('a varint runs past the end of the body');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const bytesOf = (message: Map<number, Buffer>, field: number): Buffer | undefined => message.get(field);

function textOf(message: Map<number, Buffer>, field: number): string | undefined {
  const bytes = message.get(field);
  if (bytes === undefined) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ProtobufError(`field ${field} is not UTF-8`);
  }
}

/** The non-empty strings of `message` under the names of its fields 1, 2, … (proto3 leaves "" unset). */
function strings(message: Map<number, Buffer>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = textOf(message, i + 1);
    if (value !== undefined && value !== '') out[name] = value;
  });
  return out;
}
