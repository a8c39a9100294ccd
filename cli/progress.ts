// Progress of long work (a trace fed, a file replayed, a benchmark) on one stderr line:
// `feeding fleet.jsonl: 1,200/5,000 events  340/s  ETA 11s`. Only on a terminal: piped or in
// CI, it prints nothing, so logs and tests stay clean. Shared by local/ and cli/ (local/ already
// imports from cli/, so nothing here imports either).

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  /** `done` of the total are finished; redraws at most every `everyMs`. */
  update(done: number): void;
  /** Clears the line. */
  end(): void;
}

export interface ProgressOptions {
  readonly stream?: ProgressStream;
  readonly now?: () => number;
  readonly everyMs?: number;
}

const QUIET: Progress = { update() {}, end() {} };

export function progress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  if (!stream.isTTY) return QUIET;
  const now = options.now ?? Date.now;
  const everyMs = options.everyMs ?? 250;
  const started = now();
  let drawn = -Infinity;
  let shown = false;
  return {
    update(done) {
      const at = now();
      if (at - drawn < everyMs && done < total) return;
      drawn = at;
      shown = true;
      stream.write(`\r\u001b[2K${progressLine(label, done, total, at - started)}`);
    },
    end() {
      if (shown) stream.write('\r\u001b[2K');
    },
  };
}

/** `label: done/total events  rate/s  ETA t`, rate and ETA once a first interval has passed. */
export function progressLine(label: string, done: number, total: number, elapsedMs: number): string {
  const count = `${label}: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} events`;
  if (elapsedMs <= 0 || done === 0) return count;
  const rate = (done * 1000) / elapsedMs;
  const eta = Math.max(0, Math.ceil((total - done) / rate));
  return `${count}  ${Math.round(rate).toLocaleString('en-US')}/s  ETA ${eta < 60 ? `${eta}s` : `${Math.floor(eta / 60)}m${eta % 60}s`}`;
}
