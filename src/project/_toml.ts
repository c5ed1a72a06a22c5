/** The strings of `key = [ … ]` in TOML section `[section]` (arrays may span lines); [] when absent. */
export function tomlStrings(text: string, section: string, key: string): string[] {
  const lines = text.split("\n");
  let inSection = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      inSection = header[1] === section;
      continue;
    }
    if (!inSection) continue;
    const m = new RegExp(`^${key.replace(/[.-]/g, "\\$&")}\\s*=\\s*\\[(.*)$`).exec(line);
    if (!m) continue;
    let body = m[1]!;
    while (!body.includes("]") && i + 1 < lines.length) body += `\n${lines[++i]!}`;
    body = body.slice(0, body.indexOf("]"));
    const withoutComments = body
      .split("\n")
      .map((l) => l.replace(/#.*$/, ""))
      .join("\n");
    return [...withoutComments.matchAll(/"([^"]*)"|'([^']*)'/g)].map((x) => x[1] ?? x[2] ?? "");
  }
  return [];
}

export function hasTomlSection(text: string, section: string): boolean {
  return text.split("\n").some((l) => l.trim() === `[${section}]`);
}
