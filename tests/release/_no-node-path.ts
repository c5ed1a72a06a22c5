import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";

/** A PATH of everything in /usr/bin but Node and its package managers (links in `dir`/nonode-bin). */
export function pathWithoutNode(dir: string): string {
  const bin = join(dir, "nonode-bin");
  mkdirSync(bin);
  for (const name of readdirSync("/usr/bin")) {
    if (!/^(node|nodejs|npm|npx|corepack)$/.test(name))
      symlinkSync(join("/usr/bin", name), join(bin, name));
  }
  return bin;
}
