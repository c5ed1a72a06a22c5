import { realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { readRegularFile } from "../../util/read-regular.ts";

const MAX_PACKAGE_JSON_BYTES = 1 << 20;

/**
 * The version of the TypeScript a program runs: the package it is part of, or the nearest
 * one installed beside it (`vue-tsc`, pnpm's `.bin` scripts). A bare name is found on PATH as
 * the shell would, or, started by a runner (`npx tsc`), in the project's node_modules first.
 * Undefined when not found.
 */
export function typescriptVersion(
  program: string,
  started: boolean,
  cwd: string,
): string | undefined {
  const candidates = program.includes("/")
    ? [isAbsolute(program) ? program : resolve(cwd, program)]
    : [
        ...(started ? [] : upwards(cwd).map((dir) => join(dir, "node_modules", ".bin", program))),
        ...(process.env.PATH ?? "")
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, program)),
      ];
  for (const path of candidates) {
    let real: string;
    try {
      if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) continue;
      real = realpathSync(path);
    } catch {
      continue;
    }
    for (const dir of upwards(dirname(real))) {
      const own = packageVersion(join(dir, "package.json"));
      if (own !== undefined) return own;
      const beside = packageVersion(join(dir, "node_modules", "typescript", "package.json"));
      if (beside !== undefined) return beside;
    }
    return undefined;
  }
  return undefined;
}

function upwards(from: string): string[] {
  const dirs: string[] = [];
  for (let dir = from; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dirname(dir) === dir) return dirs;
  }
}

function packageVersion(path: string): string | undefined {
  try {
    const bytes = readRegularFile(path, MAX_PACKAGE_JSON_BYTES);
    if (bytes === null) return undefined;
    const json = JSON.parse(bytes.toString("utf8")) as { name?: unknown; version?: unknown };
    return json?.name === "typescript" && typeof json.version === "string"
      ? json.version
      : undefined;
  } catch {
    return undefined;
  }
}
