import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A temp project with a sibling "outside" folder and symlinks that escape into it. */
export function makeProject(): {
  base: string;
  root: string;
  outside: string;
  cleanup: () => void;
} {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "cpilot-gate-")));
  const root = join(base, "proj");
  const outside = join(base, "outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, ".git", "hooks"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "victim.txt"), "do not touch\n");
  symlinkSync(outside, join(root, "escape-dir"));
  symlinkSync(join(outside, "victim.txt"), join(root, "escape-file"));
  symlinkSync(".git", join(root, "gitlink"));
  return { base, root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
