import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const REPO = join(import.meta.dir, "..", "..");
const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  engines: Record<string, string>;
  devDependencies: Record<string, string>;
};
const readme = readFileSync(join(REPO, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Supported versions"));

test("the README's supported versions are the engines field's and the pinned Bun's", () => {
  const node = /^>=(\d+)$/.exec(pkg.engines.node ?? "")?.[1];
  expect(node).toBeDefined();
  expect(section).toContain(`Node >= ${node} (\`engines\``);
  // engines is copied into the published launcher package, which needs Node only.
  expect(Object.keys(pkg.engines)).toEqual(["node"]);
  const bun = /Bun >= (\d+\.\d+)/.exec(section)?.[1];
  expect(bun).toBeDefined();
  const pinned = pkg.devDependencies.bun ?? "";
  expect(pinned.split(".").slice(0, 2).join(".")).toBe(bun!);
  // The types describe the Bun that runs the tests.
  expect((pkg.devDependencies["@types/bun"] ?? "").split(".").slice(0, 2)).toEqual(
    pinned.split(".").slice(0, 2),
  );
});
