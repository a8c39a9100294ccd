import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { JobIndexes } from '../../../functions/query/api-types.ts';
import { countStates, indexStates, stateNames } from './index-states.ts';

// The index grid: one cell per index, coloured by state, drawn on a canvas so 100,000 indexes
// cost one element. Pointer hover and the keyboard (arrows, Home/End, PageUp/PageDown) move a
// cursor whose index and state are announced; "Go to index" jumps.

const COLOURS = ['#d5d9e0', '#2f6fde', '#e09a2b', '#2e9b4f', '#d2373f'];
const MAX_HEIGHT = 420;

interface Layout {
  cell: number;
  cols: number;
  rows: number;
  width: number;
  height: number;
}

function layoutFor(n: number, width: number): Layout {
  const cell = Math.max(2, Math.min(24, Math.floor(Math.sqrt((width * MAX_HEIGHT) / Math.max(1, n)))));
  const cols = Math.max(1, Math.min(n, Math.floor(width / cell)));
  const rows = Math.ceil(n / cols);
  return { cell, cols, rows, width: cols * cell, height: rows * cell };
}

/** `decided`: the Job's outcome was decided at the point the indexes are of (index-states.ts stateNames). */
export function IndexGrid({ indexes, decided }: { indexes: JobIndexes; decided: boolean }) {
  const names = stateNames(decided);
  const states = useMemo(() => indexStates(indexes), [indexes]);
  const counts = useMemo(() => countStates(states), [states]);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(1000);
  const [cursor, setCursor] = useState<number | undefined>(undefined);
  const n = states.length;
  const layout = layoutFor(n, width);

  useLayoutEffect(() => {
    const element = wrap.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(200, Math.floor(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    draw(element, states, layout, cursor);
  }, [states, layout.cell, layout.cols, layout.rows, cursor]);

  const indexAt = (event: MouseEvent): number | undefined => {
    const rect = (event.currentTarget as HTMLCanvasElement).getBoundingClientRect();
    const col = Math.floor((event.clientX - rect.left) / layout.cell);
    const row = Math.floor((event.clientY - rect.top) / layout.cell);
    const index = row * layout.cols + col;
    return col >= 0 && col < layout.cols && index >= 0 && index < n ? index : undefined;
  };
  const onKey = (event: KeyboardEvent) => {
    const at = cursor ?? 0;
    const steps: Record<string, number> = {
      ArrowRight: 1, ArrowLeft: -1, ArrowDown: layout.cols, ArrowUp: -layout.cols,
      PageDown: layout.cols * 10, PageUp: -layout.cols * 10, Home: -Infinity, End: Infinity,
    };
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    setCursor(Math.max(0, Math.min(n - 1, at + step)));
  };
  const described = cursor === undefined ? 'Move over the grid, or focus it and use the arrow keys.' : `Index ${cursor.toLocaleString('en')}: ${names[states[cursor]!]}`;
  const summary = names.map((name, i) => `${counts[i]!.toLocaleString('en')} ${name.toLowerCase()}`).join(', ');

  return (
    <div class="index-grid" ref={wrap}>
      <ul class="legend" aria-label="Index states">
        {names.map((name, i) => (
          <li>
            <span class="swatch" style={{ background: COLOURS[i] }} aria-hidden="true" /> {name} <strong>{counts[i]!.toLocaleString('en')}</strong>
          </li>
        ))}
      </ul>
      <canvas
        ref={canvas}
        data-cell={layout.cell}
        data-cols={layout.cols}
        tabIndex={0}
        role="img"
        aria-label={`Index grid of ${n.toLocaleString('en')} indexes: ${summary}. Arrow keys move between indexes.`}
        aria-describedby="index-cursor"
        style={{ width: `${layout.width}px`, height: `${layout.height}px` }}
        onMouseMove={(e) => setCursor(indexAt(e))}
        onKeyDown={onKey}
      />
      <div class="grid-tools">
        <p id="index-cursor" aria-live="polite">{described}</p>
        <label>
          Go to index{' '}
          <input
            type="number"
            min={0}
            max={n - 1}
            value={cursor ?? ''}
            onInput={(e) => {
              const value = Number((e.currentTarget as HTMLInputElement).value);
              if (Number.isInteger(value) && value >= 0 && value < n) setCursor(value);
            }}
          />
        </label>
      </div>
    </div>
  );
}

function draw(element: HTMLCanvasElement, states: Uint8Array, layout: Layout, cursor: number | undefined): void {
  const ratio = window.devicePixelRatio || 1;
  element.width = Math.round(layout.width * ratio);
  element.height = Math.round(layout.height * ratio);
  const context = element.getContext('2d');
  if (!context) return;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, layout.width, layout.height);
  const { cell, cols } = layout;
  const gap = cell >= 6 ? 1 : 0;
  // One fillRect per run of equal states within a row.
  for (let row = 0; row * cols < states.length; row++) {
    const start = row * cols;
    const end = Math.min(states.length, start + cols);
    for (let i = start; i < end; ) {
      const state = states[i]!;
      let j = i + 1;
      while (j < end && states[j] === state) j++;
      context.fillStyle = COLOURS[state]!;
      if (gap === 0) {
        context.fillRect((i - start) * cell, row * cell, (j - i) * cell, cell);
      } else {
        for (let k = i; k < j; k++) context.fillRect((k - start) * cell, row * cell, cell - gap, cell - gap);
      }
      i = j;
    }
  }
  if (cursor !== undefined && cursor < states.length) {
    const x = (cursor % cols) * cell;
    const y = Math.floor(cursor / cols) * cell;
    context.lineWidth = 2;
    context.strokeStyle = '#111';
    context.strokeRect(x - 1, y - 1, cell + 1, cell + 1);
  }
}
