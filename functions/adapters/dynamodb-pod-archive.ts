import type { ArchivedPod } from '../../shared/job/snapshot.ts';
import { jsonAttributes, readJson, str } from './item-codec.ts';
import type { MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Settled pods archived out of a Job's snapshot (shared/app/pod-archive.ts): one small item
// "pod#<uid>" per pod in the stream's partition, written once (1 WCU) with unconditional batch
// puts, since storing a pod again replaces it with the same facts.

export async function saveArchivedPods(table: MeteredTable, pk: string, pods: readonly ArchivedPod[]): Promise<void> {
  const latest = new Map(pods.map((pod) => [pod.uid, pod]));
  await table.batchPut([...latest.values()].map((pod) => ({
    [ATTR.pk]: str(pk),
    [ATTR.sk]: str(keys.pod(pod.uid)),
    [ATTR.type]: str(ITEM_TYPE.pod),
    ...jsonAttributes(ATTR.data, pod),
  })));
}

export async function loadArchivedPods(table: MeteredTable, pk: string, uids: readonly string[]): Promise<ArchivedPod[]> {
  const wanted = [...new Set(uids)].map((uid) => ({ [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.pod(uid)) }));
  if (wanted.length === 0) return [];
  return (await table.batchGet(wanted, true)).map((item) => readJson(item, ATTR.data) as ArchivedPod);
}
