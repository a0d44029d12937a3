import { readFileSync } from 'node:fs';

/** One mapping of `/proc/<pid>/smaps`, with what the memory budget needs of it. */
export interface Mapping {
  readonly start: number;
  readonly end: number;
  /** `rw-p`, `r-xp`, `---p`, … */
  readonly perms: string;
  /** The mapped file, `[heap]`, `[stack]`, `[vdso]`, …; '' for an anonymous mapping. */
  readonly path: string;
  /** Resident kB. */
  readonly rssKb: number;
}

// `7f76ac124000-7f76ac136000 r--p 00000000 fd:01 1234   /path/with maybe spaces`
const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+ *(.*)$/;

/**
 * The mappings of a smaps text, in address order. Addresses become plain numbers: user-space
 * addresses stay below 2^47 and are exact; only `[vsyscall]` lies above, with no resident pages.
 */
export function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let current: Omit<Mapping, 'rssKb'> | undefined;
  for (const line of text.split('\n')) {
    const h = HEADER.exec(line);
    if (h) {
      // A deleted file keeps its name with a suffix; it is still file-backed memory.
      current = { start: parseInt(h[1]!, 16), end: parseInt(h[2]!, 16), perms: h[3]!, path: h[4]!.replace(/ \(deleted\)$/, '') };
      continue;
    }
    if (current && line.startsWith('Rss:')) {
      out.push({ ...current, rssKb: Number(/(\d+)/.exec(line)?.[1] ?? 0) });
      current = undefined;
    }
  }
  return out;
}

/** The mappings of a live process (throws when it is gone or not ours to read). */
export const readSmaps = (pid: number): Mapping[] => parseSmaps(readFileSync(`/proc/${pid}/smaps`, 'utf8'));
