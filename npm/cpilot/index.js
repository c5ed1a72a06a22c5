// The config helpers, for tools that load callbacks.config.ts with Node or Deno. The cpilot
// binary supplies its own when it loads a config; both are identity functions that type it.

/** Identity function that types a config file. */
export function defineConfig(config) {
  return config;
}

/** Identity function that types one callback, keeping its literal name. */
export function defineCallback(callback) {
  return callback;
}
