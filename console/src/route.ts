import { useEffect, useState } from 'preact/hooks';

// Pages live in the URL's hash (`#/jobs/c1/default/foobar`), so the console is a set of static
// files whatever serves it, and every page can be bookmarked and shared.

export type Route =
  | { page: 'fleet'; query: URLSearchParams }
  | { page: 'job'; cluster: string; namespace: string; name: string; query: URLSearchParams }
  | { page: 'jobset'; cluster: string; namespace: string; name: string; query: URLSearchParams }
  | { page: 'advise'; query: URLSearchParams }
  | { page: 'missing'; path: string };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter((p) => p !== '').map(decodeURIComponent);
  if (parts.length === 0) return { page: 'fleet', query };
  if (parts.length === 1 && parts[0] === 'advise') return { page: 'advise', query };
  const [kind, cluster, namespace, name] = parts;
  if (parts.length === 4 && (kind === 'jobs' || kind === 'jobsets')) {
    return { page: kind === 'jobs' ? 'job' : 'jobset', cluster: cluster!, namespace: namespace!, name: name!, query };
  }
  return { page: 'missing', path };
}

const seg = encodeURIComponent;

const withQuery = (path: string, query: Record<string, string | undefined>): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, v);
  const s = params.toString();
  return s ? `#/${path}?${s}` : `#/${path}`;
};

export const fleetHref = (query: Record<string, string | undefined> = {}): string => withQuery('', query);

export const adviseHref = (query: Record<string, string | undefined> = {}): string => withQuery('advise', query);

export const objectHref = (kind: 'Job' | 'JobSet', cluster: string, namespace: string, name: string, uid?: string): string =>
  `#/${kind === 'Job' ? 'jobs' : 'jobsets'}/${seg(cluster)}/${seg(namespace)}/${seg(name)}${uid ? `?uid=${seg(uid)}` : ''}`;

/** The current route, following hash changes. */
export function useRoute(): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return parseRoute(hash);
}
