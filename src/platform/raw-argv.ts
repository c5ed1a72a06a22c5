import { readFileSync } from "node:fs";

/**
 * The command-line arguments after the program (and script) as the kernel holds them, one
 * Buffer each, or null where they cannot be read (not Linux, no /proc). Bun decodes argv as
 * UTF-8 and turns each byte that is not into U+FFFD, so a file name that is not UTF-8 named
 * on the command line would no longer name the file. `decoded` is the runtime's own argv for
 * the same arguments: the raw ones are used only when there are as many, each decoding to it.
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
  // The runtime's argv holds its own leading words (the program, a script): the arguments
  // are the last ones on both sides.
  if (words.length < decoded.length) return null;
  const args = words.slice(words.length - decoded.length);
  return args.every((word, i) => word.toString("utf8") === decoded[i]) ? args : null;
}
