import { KubeError } from './status.ts';

// Content negotiation as the API server does it for JSON: the Accept header lists media types
// in preference order; `as=Table;v=v1;g=meta.k8s.io` asks for server-side printing, and
// `as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io` for aggregated discovery. Protobuf and
// YAML are not served: a request that accepts nothing but them is 406.

export type Representation = 'json' | 'table' | 'discovery-v2';

interface MediaRange {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
}

function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [{ type: '*/*', params: new Map() }];
  return header.slice(0, 4096).split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    return { type: type.toLowerCase(), params: new Map(params.map((p) => {
      const at = p.indexOf('=');
      return [p.slice(0, at < 0 ? p.length : at).trim(), at < 0 ? '' : p.slice(at + 1).trim()] as [string, string];
    })) };
  });
}

const JSON_TYPES = new Set(['application/json', 'application/*', '*/*']);

/** The first representation in `accept` this API can give, of those `offered`. */
export function negotiate(accept: string | undefined, offered: readonly Representation[]): Representation {
  for (const range of parseAccept(accept)) {
    if (!JSON_TYPES.has(range.type)) continue;
    const as = range.params.get('as');
    if (as === undefined) {
      if (offered.includes('json')) return 'json';
      continue;
    }
    const group = range.params.get('g');
    const version = range.params.get('v');
    if (as === 'Table' && group === 'meta.k8s.io' && (version === 'v1' || version === 'v1beta1') && offered.includes('table')) return 'table';
    if (as === 'APIGroupDiscoveryList' && group === 'apidiscovery.k8s.io' && version === 'v2' && offered.includes('discovery-v2')) return 'discovery-v2';
  }
  throw new KubeError(406, 'NotAcceptable', `only the following media types are accepted: application/json${offered.includes('table') ? ', application/json;as=Table;v=v1;g=meta.k8s.io' : ''}`);
}
