import type { Buffer } from "node:buffer";
import type * as NodeStream from "node:stream";
import { nodeBuiltin } from "../platform/builtin.ts";
import { consoleToStderr } from "../platform/stdio.ts";

/** Returns the stream for the transport; anything else printed to stdout (a config's console.log) goes to stderr. */
export function guardStdout(): { protocol: NodeStream.Writable; restore: () => void } {
  const { Writable } = nodeBuiltin<typeof NodeStream>("node:stream");
  const stdout = process.stdout;
  const original = stdout.write;
  const realWrite = original.bind(stdout) as (
    chunk: string | Uint8Array,
    callback: (err?: Error | null) => void,
  ) => boolean;
  const protocol = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      realWrite(chunk, (err) => callback(err ?? null));
    },
  });
  const toStderr = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    return process.stderr.write(chunk, callback);
  }) as typeof stdout.write;
  stdout.write = toStderr;
  const restoreConsole = consoleToStderr();
  return {
    protocol,
    restore: () => {
      stdout.write = original;
      restoreConsole();
    },
  };
}
