/**
 * The few Bun APIs cpilot uses, typed here so the sources type-check in a project that has
 * no Bun type definitions (cpilot as an npm dependency). Undefined on other runtimes.
 */
export interface BunSubprocess {
  readonly pid: number;
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  readonly stdout: unknown;
  readonly stderr: unknown;
  unref(): void;
}

type Stdio = "pipe" | "ignore";

export interface BunStdinReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

export interface BunRuntime {
  /** The entry script when running from source. */
  readonly main?: string;
  readonly stdin: { stream(): { getReader(): BunStdinReader } };
  plugin(plugin: {
    name: string;
    setup(build: { module(name: string, load: () => unknown): void }): void;
  }): void;
  readonly hash: { crc32(data: string | Uint8Array, seed?: number): number };
  /** A garbage collection now; `true`: a full one, and wait for it. */
  gc(full: boolean): void;
  /** A file by descriptor: a slice of it read as UTF-8 text, natively (a byte order mark dropped). */
  file(fd: number): { slice(start: number, end: number): { text(): Promise<string> } };
  /** Absent before Bun 1.4: scales the JIT's tier-up thresholds (1 is the normal policy). */
  readonly unsafe?: { readonly setJITPolicy?: (scale: number) => void };
  CryptoHasher: new (
    algorithm: "sha1" | "sha256",
  ) => {
    update(data: string | Uint8Array): { digest(encoding: "hex"): string };
    digest(encoding: "hex"): string;
  };
  spawn(
    cmd: string[],
    options: {
      cwd?: string;
      env?: Record<string, string>;
      detached?: boolean;
      stdin?: Stdio | Uint8Array;
      stdout?: Stdio | number;
      stderr?: Stdio | number;
      /** All descriptors at once: 0, 1, 2, then more the child inherits as 3, 4… */
      stdio?: (Stdio | number)[];
    },
  ): BunSubprocess;
  spawnSync(
    cmd: string[],
    options: {
      cwd?: string;
      env?: Record<string, string>;
      stdin?: Stdio;
      stdout?: Stdio;
      stderr?: Stdio;
      /** Kill it after this many milliseconds, with `killSignal`. */
      timeout?: number;
      killSignal?: string;
    },
  ): { exitCode: number | null; stdout?: Uint8Array; stderr?: Uint8Array };
}

export const bun: BunRuntime | undefined = (globalThis as { Bun?: BunRuntime }).Bun;

/**
 * A full garbage collection, where the runtime offers one (Bun; elsewhere nothing). For
 * phase ends that leave much garbage: the heap otherwise grows well past what is alive
 * before it collects, and the process's peak memory with it.
 */
export function collectGarbage(): void {
  bun?.gc(true);
}

let jsc: Promise<{ edenGC(): unknown } | null> | undefined;

/**
 * A collection of the young generation only (Bun; elsewhere nothing): what was made since
 * the last collection and is already garbage, such as a process's input texts once it
 * started, at a small part of a full collection's cost (it does not walk all that lives).
 */
export async function collectYoungGarbage(): Promise<void> {
  jsc ??= (async () => {
    if (bun === undefined) return null;
    try {
      const specifier = "bun:jsc"; // a variable: bundlers and Deno leave it alone
      return (await import(specifier)) as { edenGC(): unknown };
    } catch {
      return null;
    }
  })();
  (await jsc)?.edenGC();
}
