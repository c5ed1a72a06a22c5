import { statSync } from "node:fs";
import { sha1Hex } from "../platform/digest.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { stateDir } from "../util/state-dir.ts";
import { appendStateFile, readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { VERSION } from "../version.ts";

/**
 * Building the schemas costs more than the rest of a hook call, so the fingerprint of a value
 * that validated (functions by their source, cpilot's build) is kept, and they are not loaded.
 */
export function configFingerprint(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "function") return `fn:${v.toString()}`;
    if (v instanceof RegExp) return `re:${v.toString()}`;
    return v;
  });
  return sha1Hex(`${VERSION}\0${BUILD}\0${text}`);
}

/** A rebuilt cpilot (new rules, same version) validates every config again. */
const BUILD = (() => {
  try {
    const st = statSync(process.execPath);
    return `${process.execPath}:${st.size}:${st.mtimeMs}`;
  } catch {
    return process.execPath;
  }
})();

function cacheFile(root: string): string {
  return statePath(root, STATE.cache, STATE.validConfigs);
}

export function knownValid(root: string, fingerprint: string): boolean {
  return readStateFile(cacheFile(root), MAX_CACHE_BYTES)?.includes(`${fingerprint}\n`) === true;
}

/** Past this the cache starts over instead of growing for ever. */
const MAX_CACHE_BYTES = 256 * 1024;

export function rememberValid(root: string, fingerprint: string): void {
  try {
    stateDir(root, STATE.cache);
    const file = cacheFile(root);
    if ((readStateFile(file, MAX_CACHE_BYTES + 1)?.length ?? 0) > MAX_CACHE_BYTES) {
      writeFileAtomic(file, `${fingerprint}\n`, { durable: false });
    } else appendStateFile(file, `${fingerprint}\n`);
  } catch {
    // nothing to do: the next run validates again
  }
}
