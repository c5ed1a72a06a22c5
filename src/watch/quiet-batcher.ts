/**
 * Gathers paths until nothing new has come for `quietMs` (several writes in a row are one
 * batch), or `maxWaitMs` after the first (a tree that never stops changing is still checked).
 */
export interface QuietBatcher {
  add(path: string): void;
  pending(): number;
  flushNow(): void;
  close(): void;
}

export function quietBatcher(
  options: { quietMs: number; maxWaitMs?: number },
  flush: (paths: string[]) => void,
): QuietBatcher {
  const maxWait = options.maxWaitMs ?? Math.max(5000, options.quietMs * 10);
  let paths = new Set<string>();
  let first = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = (): void => {
    timer = undefined;
    if (paths.size === 0) return;
    const out = [...paths].sort();
    paths = new Set();
    flush(out);
  };
  return {
    add(path) {
      if (paths.size === 0) first = Date.now();
      paths.add(path);
      if (timer !== undefined) clearTimeout(timer);
      const left = first + maxWait - Date.now();
      timer = setTimeout(fire, Math.max(0, Math.min(options.quietMs, left)));
    },
    pending: () => paths.size,
    flushNow() {
      if (timer !== undefined) clearTimeout(timer);
      fire();
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      paths = new Set();
    },
  };
}
