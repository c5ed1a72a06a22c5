// A nested .gitignore's rules rewritten relative to the walk's root, so one rule list (deeper
// files later, so they win) decides every path: in `a/.gitignore`, `x` becomes `a/**\/x`.

/** git's trim_trailing_spaces: drop trailing spaces unless escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let lastSpace = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === " ") {
      if (lastSpace === -1) lastSpace = i;
    } else {
      if (ch === "\\") i++;
      lastSpace = -1;
    }
  }
  return lastSpace === -1 ? line : line.slice(0, lastSpace);
}

/** Glob characters and a leading `!`/`#` escaped. */
function literal(dir: string): string {
  return dir.replace(/[\\*?[\]]/g, "\\$&").replace(/^[!#]/, "\\$&");
}

export function gitignoreRules(text: string, dir: string): string[] {
  const rules: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, "").split("\n")) {
    const line = trimTrailingSpaces(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
    if (line === "" || line.startsWith("#")) continue;
    if (dir === "") {
      rules.push(line);
      continue;
    }
    const negated = line.startsWith("!");
    let body = negated ? line.slice(1) : line;
    const slash = body.indexOf("/");
    const anchored = slash !== -1 && slash < body.length - 1;
    if (body.startsWith("/")) body = body.slice(1);
    if (body === "" || body === "/") continue; // "/" alone matches nothing in git
    rules.push(`${negated ? "!" : ""}${literal(dir)}/${anchored ? "" : "**/"}${body}`);
  }
  return rules;
}
