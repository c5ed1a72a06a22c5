import { readFileSync } from "node:fs";

/**
 * The arguments as the kernel holds them, or null without /proc: Bun decodes argv as UTF-8,
 * so a file name that is not would no longer name the file. Used only when they decode to
 * `decoded`, one for one.
 */
export function rawArgv(decoded: readonly string[]): Buffer[] | null {
  let cmdline: Buffer;
  try {
    cmdline = readFileSync("/proc/self/cmdline");
  } catch {
    return null;
  }
  const words: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < cmdline.length; i++) {
    if (cmdline[i] !== 0) continue;
    words.push(cmdline.subarray(start, i));
    start = i + 1;
  }
  if (start < cmdline.length) words.push(cmdline.subarray(start));
  // The runtime's argv holds its own leading words: the arguments are the last ones.
  if (words.length < decoded.length) return null;
  const args = words.slice(words.length - decoded.length);
  return args.every((word, i) => word.toString("utf8") === decoded[i]) ? args : null;
}
