import { open, rename } from 'node:fs/promises';

/**
 * Replaces `path` with `text` so that a crash leaves either the old or the new content:
 * write a temporary file, fsync it, rename it over the target.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

/** Appends `text` and fsyncs before resolving. */
export async function appendFileSynced(path: string, text: string): Promise<void> {
  const handle = await open(path, 'a');
  try {
    await handle.write(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
