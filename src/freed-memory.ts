import { createRequire } from 'node:module';

/**
 * Gives the pages that malloc holds free back to the kernel: glibc's `malloc_trim(0)`, called
 * through koffi (a foreign function interface), on Linux with glibc only.
 *
 * glibc returns freed memory to the kernel only from the top of a heap, and only once more than
 * its trim threshold lies free there, a threshold that grows with the largest block it has given
 * back. What a load frees in the middle of a heap stays resident: above all in the arenas of other
 * threads, where the write thread's SQLite connection, its statements and its V8 isolate allocated
 * (the arena outlives the thread), and in the main heap after a long streamed answer. After a load
 * the idle process kept about 19 MB of such pages in the thread arenas; `malloc_trim(0)` walks every
 * arena and releases each whole free page, wherever it lies (docs/performance.md, "What remains
 * after the load").
 *
 * It holds each arena's lock in turn while it walks it, and the pages it gives back cost a page
 * fault each when they are used again: it runs only when the process has gone quiet
 * (heap-settings.ts) and when the write thread has gone away (writes/write-thread.ts).
 */
type Trim = (pad: number) => number;

let trim: Trim | null | undefined;

function load(): Trim | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    // Not glibc (musl has no malloc_trim), or no prebuilt koffi for this machine: nothing to call.
    return null;
  }
}

/** Releases malloc's free pages (see above); true if it could ask, false where there is no such call. */
export function releaseFreedMemory(): boolean {
  trim ??= load();
  if (!trim) return false;
  trim(0);
  return true;
}
