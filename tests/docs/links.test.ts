/** Every relative link in the README, the top-level guides and docs/*.md leads to a file that exists, and its #anchor to a heading there. */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const REPO = join(import.meta.dir, "..", "..");
const TOP = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md"];
const DOCS = readdirSync(join(REPO, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    const heading = !inFence && /^#{1,6} (.*)$/.exec(line);
    if (heading) found.add(slug(heading[1] ?? ""));
  }
  return found;
}

test("relative links in the README and docs resolve, anchors included", () => {
  const broken: string[] = [];
  for (const file of [...TOP, ...DOCS]) {
    const path = join(REPO, file);
    if (!existsSync(path)) {
      broken.push(`${file}: missing`);
      continue;
    }
    const text = readFileSync(path, "utf8").replace(/```[\s\S]*?```/g, "");
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [pathPart = "", anchor] = target.split("#");
      const resolved = pathPart === "" ? path : join(dirname(path), pathPart);
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${target} (no ${relative(REPO, resolved)})`);
        continue;
      }
      if (
        anchor &&
        resolved.endsWith(".md") &&
        !anchors(readFileSync(resolved, "utf8")).has(anchor)
      )
        broken.push(`${file}: ${target} (no heading for #${anchor})`);
    }
  }
  expect(broken).toEqual([]);
});
