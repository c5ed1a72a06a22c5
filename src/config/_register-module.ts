import { bun } from "../platform/bun.ts";
import * as define from "./define.ts";

let registered = false;

/**
 * Make `import { defineConfig } from "cpilot"` resolve inside a user's config even when
 * cpilot is a standalone binary and the project has no node_modules. Bun only: the one
 * Bun-specific API of config loading. Elsewhere (Deno, Node) the import resolves through
 * the project's own node_modules.
 */
export function registerCpilotModule(): void {
  if (registered) return;
  registered = true;
  if (!bun) return;
  const exports = { defineConfig: define.defineConfig, defineCallback: define.defineCallback };
  bun.plugin({
    name: "cpilot-config-module",
    setup(build) {
      build.module("cpilot", () => ({ exports, loader: "object" }));
    },
  });
}
