// A fingerprint of everything a release build reads, so a test can tell whether
// dist/release was built from the files as they are now and reuse it (a full build of every
// target takes minutes on a busy machine).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const READ_BY_BUILD = ["main.ts", "src/", "scripts/", "npm/", "package.json", "package-lock.json"];

/** What a build made: its binaries' targets, then its platform packages' ("a,b npm:a"). */
export function releaseKey(
  binaries: readonly { name: string }[],
  packed: readonly { name: string }[],
): string {
  return `${binaries.map((t) => t.name).join(",")} npm:${packed.map((t) => t.name).join(",")}`;
}

/** sha256 over the paths and contents of the build's inputs (tracked and new files), and what it made. */
export function inputsFingerprint(repo: string, key: string): string {
  const listed = spawnSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: repo,
    encoding: "utf8",
  });
  if (listed.status !== 0)
    throw new Error(`Cannot list the files of "${repo}": git ls-files failed`);
  const files = listed.stdout
    .split("\0")
    .filter((f) => f !== "" && READ_BY_BUILD.some((p) => f === p || f.startsWith(p)))
    .sort();
  const hash = createHash("sha256").update(`${key}\n`);
  for (const file of files) {
    hash.update(`${file}\0`);
    try {
      hash.update(readFileSync(join(repo, file)));
    } catch {
      hash.update("(deleted)");
    }
  }
  return hash.digest("hex");
}
