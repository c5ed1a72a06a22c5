import { bun } from "../platform/bun.ts";
import * as define from "./define.ts";

let registered = false;

/**
 * Make `import { defineConfig } from "cpilot"` resolve in a user's config when cpilot is a
 * standalone binary and the project has no node_modules. Bun only.
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
