import type { CallbackDef, CpilotConfig } from "./types.ts";

/**
 * Identity function that types a config file.
 *
 * @example
 * export default defineConfig({ callbacks: [{ name: "tsc", pattern: "*.ts", run: "tsc --noEmit", timeout: 60 }] });
 */
export function defineConfig<const T extends CpilotConfig>(config: T): T {
  return config;
}

/** Identity function that types one callback, keeping its literal name. */
export function defineCallback<const T extends CallbackDef>(callback: T): T {
  return callback;
}
