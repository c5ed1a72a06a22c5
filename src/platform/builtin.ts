/**
 * A `node:` built-in, loaded when first asked for. A static import is loaded at start-up
 * by every command of the compiled binary, and some (node:crypto, node:child_process with
 * its streams) are slow to load: too much on the hook path, which runs on every edit. Works on Bun, Deno and Node (process.getBuiltinModule).
 */
export function nodeBuiltin<T>(id: `node:${string}`): T {
  const get = (process as unknown as { getBuiltinModule?: (id: string) => unknown })
    .getBuiltinModule;
  if (typeof get !== "function") throw new Error(`this runtime cannot load ${id} on demand`);
  return get(id) as T;
}
