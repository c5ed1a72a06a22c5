/**
 * A `node:` built-in, loaded when first asked for: a static import loads at start-up of every
 * command, and some (node:crypto, node:child_process) are too slow for the hook path.
 */
export function nodeBuiltin<T>(id: `node:${string}`): T {
  const get = (process as unknown as { getBuiltinModule?: (id: string) => unknown })
    .getBuiltinModule;
  if (typeof get !== "function") throw new Error(`this runtime cannot load ${id} on demand`);
  return get(id) as T;
}
