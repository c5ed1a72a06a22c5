import type { Origin } from "../model/batch.ts";
import { type RecordShape, RemoteCache } from "./client.ts";
import { remoteCacheText } from "./messages.ts";
import { remoteCacheSettings } from "./settings.ts";
import { writeRefusal } from "./trust.ts";

export interface OpenedRemoteCache<T> {
  readonly cache: RemoteCache<T> | null;
  readonly notices: readonly string[];
}

/** Every surface reads; only `cpilot check` outside an agent's session, with CPILOT_REMOTE_CACHE_WRITE=1, writes. */
export function openRemoteCache<T>(
  surface: Origin["surface"],
  shape: RecordShape<T>,
  options: {
    env?: Readonly<Record<string, string | undefined>>;
    duration?: (record: T) => number;
  } = {},
): OpenedRemoteCache<T> {
  const env = options.env ?? process.env;
  const found = remoteCacheSettings(env);
  if (found.kind === "off") return { cache: null, notices: [] };
  if (found.kind === "bad")
    return { cache: null, notices: [remoteCacheText.badSettings(found.problem)] };
  const refusal = writeRefusal(found.settings.writeAsked, surface, env);
  const cache = new RemoteCache<T>({
    settings: found.settings,
    shape,
    write: refusal === null,
    ...(options.duration ? { duration: options.duration } : {}),
  });
  // a refusal is news only to someone who asked to write
  const notices =
    found.settings.writeAsked && refusal !== null ? [remoteCacheText.writeRefused(refusal)] : [];
  return { cache, notices };
}
