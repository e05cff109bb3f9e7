// Reads the simulator's own source for the fidelity page: the upstream file each sim/ file
// mirrors (its "Mirrors ..." first-line comment) and every "Simplification:" note. The page is
// generated from these, so it cannot drift from the code.

export interface FidelityEntry {
  /** file is the path inside the repository, e.g. sim/scheduler/plugins/node-resources-fit.ts. */
  file: string;
  /** mirrors is the upstream source the file follows, from its first comment; may be empty. */
  mirrors: string;
  /** simplifications are the notes marked `Simplification:` in the file, in order. */
  simplifications: string[];
}

// commentBlock returns the comment lines starting at index i, joined, without the markers.
function commentBlock(lines: string[], i: number): { text: string; end: number } {
  const out: string[] = [];
  let j = i;
  for (; j < lines.length; j++) {
    const m = /^\s*(?:\/\/+|\*|\/\*\*?)\s?(.*?)\s*(?:\*\/)?$/.exec(lines[j] ?? '');
    const body = m?.[1];
    if (body === undefined || (j > i && /Simplification:/.test(body))) break;
    if (j > i && body === '') break;
    out.push(body);
  }
  return { text: out.join(' ').replace(/\s+/g, ' ').trim(), end: j };
}

/** extractFidelity parses one source file; files with neither note return undefined. */
export function extractFidelity(file: string, source: string): FidelityEntry | undefined {
  const lines = source.split('\n');
  let mirrors = '';
  let start = 0;
  const first = lines.findIndex((l) => l.trim() !== '' && !l.startsWith('///'));
  if (first >= 0 && /^\s*\/\/\s*Mirrors\b/.test(lines[first] ?? '')) {
    const block = commentBlock(lines, first);
    mirrors = block.text.replace(/^Mirrors\s+/, '');
    start = block.end;
  }
  const simplifications: string[] = [];
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const idx = line.indexOf('Simplification:');
    // A quoted "Simplification:" is a reference to the notes, not a note.
    if (idx < 0 || line[idx - 1] === '"' || !/^\s*(\/\/|\*|\/\*)/.test(line)) continue;
    const { text, end } = commentBlock(lines, i);
    const note = text.slice(text.indexOf('Simplification:') + 'Simplification:'.length).trim();
    if (note) simplifications.push(note);
    i = Math.max(i, end - 1);
  }
  if (!mirrors && simplifications.length === 0) return undefined;
  return { file, mirrors, simplifications };
}

/** collectFidelity parses many files, test files excluded, sorted by path. */
export function collectFidelity(files: Record<string, string>): FidelityEntry[] {
  return Object.entries(files)
    .filter(([f]) => !f.endsWith('.test.ts') && !/\/(testing|testutil)\.ts$/.test(f))
    .map(([f, src]) => extractFidelity(f.replace(/^\//, ''), src))
    .filter((e): e is FidelityEntry => e !== undefined)
    .sort((a, b) => (a.file < b.file ? -1 : 1));
}
