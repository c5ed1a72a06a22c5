/** The few Bun APIs cpilot uses, typed here so the sources type-check without Bun's type definitions. */
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
  readonly main?: string;
  readonly stdin: { stream(): { getReader(): BunStdinReader } };
  plugin(plugin: {
    name: string;
    setup(build: { module(name: string, load: () => unknown): void }): void;
  }): void;
  readonly hash: { crc32(data: string | Uint8Array, seed?: number): number };
  gc(full: boolean): void;
  /** A stream's bytes read to its end in native code, with no JavaScript per chunk. */
  readableStreamToBytes?(stream: unknown): Promise<Uint8Array> | Uint8Array;
  /** Read as UTF-8 natively (a byte order mark dropped). */
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
      timeout?: number;
      killSignal?: string;
    },
  ): { exitCode: number | null; stdout?: Uint8Array; stderr?: Uint8Array };
}

export const bun: BunRuntime | undefined = (globalThis as { Bun?: BunRuntime }).Bun;

/** A full collection where the runtime offers one (Bun), for phase ends that leave much garbage: it lowers peak memory. */
export function collectGarbage(): void {
  bun?.gc(true);
}

let jsc: Promise<{ edenGC(): unknown } | null> | undefined;

/** A young-generation collection (Bun): cheap, for garbage such as a process's input once it started. */
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
