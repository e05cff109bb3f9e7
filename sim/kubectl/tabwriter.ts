// Mirrors Go's text/tabwriter (and github.com/liggitt/tabwriter, which kubectl's table printer
// uses): tab-terminated cells, column blocks over consecutive lines, cell width = text + padding
// (at least minwidth), left alignment, and no padding for the last cell of a line.
// Simplification: no escapes, no HTML filtering, no flags other than 0.

/** TabwriterOptions are the arguments of tabwriter.Writer.Init. */
export interface TabwriterOptions {
  minwidth: number;
  padding: number;
  /** padchar is the padding character; only ' ' is supported. */
  padchar: ' ';
}

/** GET_TABWRITER is printers.GetNewTabWriter: minwidth 6, tabwidth 4, padding 3, ' '. */
export const GET_TABWRITER: TabwriterOptions = { minwidth: 6, padding: 3, padchar: ' ' };

/** DESCRIBE_TABWRITER is describe.tabbedString: minwidth 0, tabwidth 8, padding 2, ' '. */
export const DESCRIBE_TABWRITER: TabwriterOptions = { minwidth: 0, padding: 2, padchar: ' ' };

/** FLUSH is a marker a writer may embed to force Flush() at that point (like Go's w.Flush()). */
export const FLUSH = '\u0000flush\u0000';

interface Cell {
  text: string;
  width: number;
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function parseLines(text: string): { lines: Cell[][]; trailingNewline: boolean } {
  const raw = text.split('\n');
  const trailingNewline = raw[raw.length - 1] === '';
  if (trailingNewline) raw.pop();
  const lines = raw.map((l) => l.split('\t').map((t) => ({ text: t, width: runeCount(t) })));
  return { lines, trailingNewline };
}

// formatBlock is one Flush() of Go's tabwriter over a buffer of complete lines.
function formatBlock(lines: Cell[][], opts: TabwriterOptions, finalNewline: boolean): string {
  const out: string[] = [];
  const widths: number[] = [];

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const line = lines[i];
      for (let j = 0; j < line.length; j++) {
        const c = line[j];
        if (c.width === 0) {
          if (j < widths.length) out.push(opts.padchar.repeat(widths[j]));
        } else {
          out.push(c.text);
          if (j < widths.length) out.push(opts.padchar.repeat(widths[j] - c.width));
        }
      }
      if (i + 1 < lines.length || finalNewline) out.push('\n');
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let cur = line0; cur < line1; cur++) {
      if (column >= lines[cur].length - 1) continue;
      // A cell exists in this column: print the lines before the block, then size the block.
      writeLines(line0, cur);
      line0 = cur;
      let width = opts.minwidth;
      for (; cur < line1; cur++) {
        const line = lines[cur];
        if (column >= line.length - 1) break;
        const w = line[column].width + opts.padding;
        if (w > width) width = w;
      }
      widths.push(width);
      format(line0, cur);
      widths.pop();
      line0 = cur;
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out.join('');
}

/**
 * tabwrite formats text the way a Go tabwriter with the given options would, for the whole text
 * written and then flushed. FLUSH markers split the text into independently formatted parts.
 */
export function tabwrite(text: string, opts: TabwriterOptions): string {
  return text
    .split(FLUSH)
    .map((part) => {
      if (part === '') return '';
      const { lines, trailingNewline } = parseLines(part);
      return formatBlock(lines, opts, trailingNewline);
    })
    .join('');
}
