import type { CallbackDef, CpilotConfig } from "./types.ts";

/**
 * Types a config file.
 *
 * @example
 * export default defineConfig({ callbacks: [{ name: "tsc", pattern: "*.ts", run: "tsc --noEmit", timeout: 60 }] });
 */
export function defineConfig<const T extends CpilotConfig>(config: T): T {
  return config;
}

/** Types one callback, keeping its literal name. */
export function defineCallback<const T extends CallbackDef>(callback: T): T {
  return callback;
}
