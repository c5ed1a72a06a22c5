import { statSync } from "node:fs";
import { sha1Hex } from "../platform/digest.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { stateDir } from "../util/state-dir.ts";
import { appendStateFile, readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { VERSION } from "../version.ts";

/**
 * Validating a config means building its schemas, which costs more than the rest of a hook
 * call. A config value that validated once validates again, so its fingerprint (the value
 * with functions by their source, cpilot's version and build) is remembered under `.cpilot/cache/`
 * and the schemas are not even loaded the next time.
 */
export function configFingerprint(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "function") return `fn:${v.toString()}`;
    if (v instanceof RegExp) return `re:${v.toString()}`;
    return v;
  });
  return sha1Hex(`${VERSION}\0${BUILD}\0${text}`);
}

/**
 * The running executable's identity: a rebuilt cpilot (new rules, same version number)
 * validates every config again.
 */
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

/** True when a value with this fingerprint validated before in this project. */
export function knownValid(root: string, fingerprint: string): boolean {
  return readStateFile(cacheFile(root), MAX_CACHE_BYTES)?.includes(`${fingerprint}\n`) === true;
}

/** ~6,000 fingerprints: past this the cache starts over instead of growing for ever. */
const MAX_CACHE_BYTES = 256 * 1024;

/** Remember a fingerprint that validated; best effort (a read-only tree just revalidates). */
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
