import type * as NodeUtil from "node:util";
import type { ResolvedConfig } from "../config/resolve.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { CpilotError, HelpRequest } from "../util/errors.ts";

/** parseArgs with strict checking, turning its errors into usage errors (exit 2). */
export function parseFlags<T extends NonNullable<NodeUtil.ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
  usage: string,
) {
  const end = args.indexOf("--");
  const own = end === -1 ? args : args.slice(0, end);
  if (own.includes("--help") || own.includes("-h")) throw new HelpRequest(`usage: ${usage}`);
  try {
    const { parseArgs } = nodeBuiltin<typeof NodeUtil>("node:util");
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CpilotError(`Cannot parse arguments: ${(err as Error).message}`, {
      hint: `usage: ${usage}`,
    });
  }
}

/** The nearest names to a misspelled one, for "did you mean" hints. */
export function nearest(name: string, candidates: readonly string[], max = 3): string[] {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return row[b.length]!;
  };
  return [...candidates]
    .map((c) => ({ c, d: distance(name, c) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)) || c.includes(name))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map(({ c }) => c);
}

/** Fail with a clear message when a callback name is not in the config. */
export function assertKnownNames(
  names: readonly string[],
  known: readonly string[],
  flag: string,
): void {
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = nearest(name, known);
    throw new CpilotError(`Cannot ${flag} "${name}": no callback has that name`, {
      hint:
        near.length > 0
          ? `did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
          : `callbacks: ${known.join(", ") || "(none)"}`,
    });
  }
}

/** A config for an install step, or null when there is none or it does not load (install still works). */
export async function loadConfigQuietly(path: string): Promise<ResolvedConfig | null> {
  try {
    const { loadConfigFile } = await import("../config/load.ts");
    return await loadConfigFile(path);
  } catch {
    return null;
  }
}

/** Said after an install when the project has no config yet. */
export const NO_CONFIG_YET =
  "  no callbacks.config.ts here yet: `cpilot init` writes one; until then the hooks do nothing";
