import { bun } from "./bun.ts";

export interface Libc {
  prctl(option: number, a: bigint, b: bigint, c: bigint, d: bigint): number;
  waitpid(pid: number, status: unknown, options: number): number;
  getppid(): number;
}

let libc: Promise<Libc | null> | undefined;

/** glibc's libc.so.6 through Bun's FFI, loaded once; null elsewhere (Deno, macOS, musl). */
export function linuxLibc(): Promise<Libc | null> {
  libc ??= (async () => {
    if (bun === undefined || process.platform !== "linux") return null;
    try {
      const specifier = "bun:ffi"; // a variable: bundlers and Deno leave it alone
      const ffi = (await import(specifier)) as {
        dlopen(
          path: string,
          symbols: Record<string, { args: string[]; returns: string }>,
        ): { symbols: Libc };
      };
      return ffi.dlopen("libc.so.6", {
        prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" },
        waitpid: { args: ["i32", "ptr", "i32"], returns: "i32" },
        getppid: { args: [], returns: "i32" },
      }).symbols;
    } catch {
      return null;
    }
  })();
  return libc;
}
