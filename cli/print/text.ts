import { printable } from '../../shared/k8s/printable.ts';

// The one text printer. Every human-readable output of jobfold (replay, describe, explain,
// whatif, verify, `npm start`'s report) is built as a document of blocks by the printer of its
// kind (cli/print/index.ts) and laid out here, in kubectl's manners: `Label:` fields aligned
// within their list, titled sections indented by two, tables as `kubectl describe` draws them
// (two spaces apart, a dashed rule under the header) or as `kubectl get` lists (three spaces
// apart). Names, reasons and messages come from clusters: every piece of text is escaped
// (shared/k8s/printable.ts) before it is measured, so a hostile name neither moves a column
// nor reaches the terminal as a control character.

export type Block =
  | { readonly kind: 'field'; readonly label: string; readonly value: string | number }
  | { readonly kind: 'section'; readonly title: string | undefined; readonly body: readonly Block[] }
  | {
      readonly kind: 'table';
      /** Printed as `Title:` above the table (indented by two), or as `Title:  <empty>` without rows. */
      readonly title: string | undefined;
      readonly header: readonly string[];
      readonly rows: readonly (readonly string[])[];
      /** `describe`: two spaces apart, a dashed rule under the header; `list`: three spaces apart. */
      readonly style: 'describe' | 'list';
      readonly empty: string;
    }
  | { readonly kind: 'line'; readonly text: string };

/** A document: its blocks, and the least width of its top-level labels (kubectl describe's 20). */
export interface Document {
  readonly blocks: readonly Block[];
  readonly labelWidth?: number;
}

export const field = (label: string, value: string | number): Block => ({ kind: 'field', label, value });
export const section = (title: string, body: readonly Block[]): Block => ({ kind: 'section', title, body });
/** The body indented by two, under no title (it follows the line it belongs to). */
export const indented = (body: readonly Block[]): Block => ({ kind: 'section', title: undefined, body });
export const line = (text: string): Block => ({ kind: 'line', text });
export const lines = (texts: readonly string[]): Block[] => texts.map(line);

/** A `kubectl describe` table; without rows, `Title:  <none>` (or `empty`). */
export function table(title: string | undefined, header: readonly string[], rows: readonly (readonly string[])[], empty = '<none>'): Block {
  return { kind: 'table', title, header, rows, style: 'describe', empty };
}

/** A `kubectl get` list: upper-case headers as given, columns three spaces apart, no rule. */
export function list(header: readonly string[], rows: readonly (readonly string[])[]): Block {
  return { kind: 'table', title: undefined, header, rows, style: 'list', empty: '' };
}

/** The document as text, without a final line break. */
export function printText(document: Document | readonly Block[]): string {
  const { blocks, labelWidth = 0 } = 'blocks' in document ? document : { blocks: document };
  return layout(blocks, '', labelWidth).join('\n');
}

const INDENT = '  ';

function layout(blocks: readonly Block[], indent: string, minWidth: number): string[] {
  // Fields of one list align to its longest label, as kubectl's tabwriter aligns a block; a
  // titled table without rows prints as a field (`Commands:  <none>`) and aligns with them.
  const labels = blocks.flatMap((block) => {
    if (block.kind === 'field') return [block.label];
    if (block.kind === 'table' && block.rows.length === 0 && block.title !== undefined) return [block.title];
    return [];
  });
  const width = Math.max(minWidth, ...labels.map((label) => printable(label).length + 3));
  const asField = (label: string, value: string | number) => `${indent}${`${printable(label)}:`.padEnd(width)}${printable(String(value))}`;
  const out: string[] = [];
  for (const block of blocks) {
    switch (block.kind) {
      case 'field':
        out.push(asField(block.label, block.value));
        break;
      case 'line':
        out.push(`${indent}${printable(block.text)}`);
        break;
      case 'section':
        if (block.title !== undefined) out.push(`${indent}${printable(block.title)}:`);
        out.push(...layout(block.body, indent + INDENT, 0));
        break;
      case 'table':
        if (block.rows.length === 0 && block.title !== undefined) out.push(asField(block.title, block.empty));
        else if (block.title === undefined) out.push(...tableLines(block, indent));
        else out.push(`${indent}${printable(block.title)}:`, ...tableLines(block, indent + INDENT));
        break;
      default: {
        const exhaustive: never = block;
        throw new Error(`unknown block ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return out;
}

function tableLines(block: Extract<Block, { kind: 'table' }>, indent: string): string[] {
  const describe = block.style === 'describe';
  const header = block.header.map(printable);
  const rows = [header, ...(describe ? [header.map((h) => '-'.repeat(h.length))] : []), ...block.rows.map((row) => row.map(printable))];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const gap = describe ? '  ' : '   ';
  return rows.map((row) => (indent + row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join(gap)).trimEnd());
}
