import type { ObjectIdentity, WatchedKind } from '../observation.ts';

/**
 * The objects the forwarder currently believes exist, by uid, with the last resourceVersion
 * it reported. Seeded from the known-objects file at start. The informer cache is keyed by
 * name, so this is what notices a pod replaced by a new one with the same name, and what keeps
 * a deletion from being reported twice (once by a relist, once by the informer).
 */
export class LiveObjects {
  readonly #objects = new Map<string, { identity: ObjectIdentity; resourceVersion: string | undefined }>();

  constructor(seed: Iterable<ObjectIdentity> = []) {
    for (const identity of seed) this.#objects.set(identity.uid, { identity, resourceVersion: undefined });
  }

  /** Remembers an observed version; false when exactly this version was already reported. */
  observe(identity: ObjectIdentity, resourceVersion: string): boolean {
    const known = this.#objects.get(identity.uid);
    this.#objects.set(identity.uid, { identity, resourceVersion });
    return known?.resourceVersion !== resourceVersion;
  }

  /**
   * Marks an object as not reported, so the next relist reports it again (or reports it
   * deleted): used for events the full spool could not keep.
   */
  restore(identity: ObjectIdentity): void {
    this.#objects.set(identity.uid, { identity, resourceVersion: undefined });
  }

  /** Forgets a deleted object; false when it was not live (its deletion is already reported). */
  forget(uid: string): boolean {
    return this.#objects.delete(uid);
  }

  /**
   * The live objects of `kind` (within `inScope`) that a full list no longer contains: they
   * were deleted while no watch was running. They are forgotten as they are returned.
   */
  vanished(kind: WatchedKind, listedUids: ReadonlySet<string>, inScope: (identity: ObjectIdentity) => boolean): ObjectIdentity[] {
    const gone: ObjectIdentity[] = [];
    for (const [uid, { identity }] of this.#objects) {
      if (identity.kind === kind && !listedUids.has(uid) && inScope(identity)) {
        gone.push(identity);
        this.#objects.delete(uid);
      }
    }
    return gone;
  }
}
