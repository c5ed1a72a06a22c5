/**
 * A workspace member pattern (`packages/*`, `apps/**`, `crates/foo`) as a test of a folder
 * relative to the root, as npm, pnpm, Cargo and uv read them: `*` is one folder name, `**`
 * any depth.
 */
export function memberGlob(pattern: string): (dir: string) => boolean {
  const clean = pattern.replace(/^\.\//, "").replace(/\/+$/, "");
  let re = "";
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i]!;
    if (c === "*" && clean[i + 1] === "*") {
      re += ".*";
      i++;
      if (clean[i + 1] === "/") i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const compiled = new RegExp(`^${re}$`);
  return (dir) => compiled.test(dir);
}
