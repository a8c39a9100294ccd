// Calls the query API with relative URLs only (/v1/…), so the same build works behind the local
// stack and behind `jobfold console --endpoint URL`, which proxies and signs them.

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** GET a JSON resource; non-2xx answers become an ApiError carrying the API's message. */
export async function getJson<T>(path: string, query: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  const response = await fetch(search ? `${path}?${search}` : path, { headers: { accept: 'application/json' }, signal });
  return answer<T>(response);
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(response.status, `${response.status} ${response.statusText}: the answer is not JSON`);
  }
  if (!response.ok) {
    const error = body as { message?: string; errors?: { path: string; message: string }[] };
    const details = error.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
    throw new ApiError(response.status, `${response.status}: ${error.message ?? response.statusText}${details ? ` (${details})` : ''}`);
  }
  return body as T;
}

/** POST a JSON body (the what-if and advise routes, which read and change nothing); errors as getJson's. */
export async function postJson<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  return answer<T>(response);
}

const segment = encodeURIComponent;

/** `/v1/clusters/{c}/namespaces/{ns}/jobs/{name}` (or jobsets) plus a suffix. */
export function objectPath(kind: 'Job' | 'JobSet', cluster: string, namespace: string, name: string, suffix = ''): string {
  const plural = kind === 'Job' ? 'jobs' : 'jobsets';
  return `/v1/clusters/${segment(cluster)}/namespaces/${segment(namespace)}/${plural}/${segment(name)}${suffix}`;
}
