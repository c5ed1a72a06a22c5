/**
 * `go vet ./...` analyzes no package whose imports do not type-check: with an old type error
 * in package a, a change to package b (which imports a) is never read. Nothing can run b
 * past a, so `check --new-only` must not pass on the old error alone: it says the run
 * stopped before the changed file and fails.
 */
import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { committedRepo } from "../helpers/tmp.ts";

const GO = spawnSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).stdout.trim();

function project(): string {
  const root = committedRepo("cpilot-go-vet-", {
    ".gitignore": ".cpilot/\n",
    "go.mod": "module example.com/m\n\ngo 1.19\n",
    "a/a.go": 'package a\n\nfunc One() int {\n\treturn "x"\n}\n',
    "b/b.go":
      'package b\n\nimport (\n\t"fmt"\n\n\t"example.com/m/a"\n)\n\nfunc Two() {\n\tfmt.Println(a.One())\n}\n',
  });
  writeFileSync(
    join(root, "callbacks.config.json"),
    JSON.stringify({
      callbacks: [
        {
          name: "vet",
          pattern: "*.go",
          // the build cache inside the project's ignored state: no shared folder written
          run: `GOCACHE=${join(root, ".cpilot", "gocache")} GOFLAGS=-mod=mod ${GO} vet ./...`,
          timeout: 300,
        },
      ],
    }),
  );
  spawnSync("git", ["add", "callbacks.config.json"], { cwd: root });
  spawnSync("git", ["commit", "-qm", "config"], { cwd: root });
  return root;
}

test.skipIf(GO === "")(
  "check --new-only: go vet stopped at an old type error before the changed package fails, and says so",
  () => {
    const root = project();
    // Old errors only, on the project as committed: --new-only passes.
    const old = cpilot(["check", "--all", "--new-only"], { cwd: root });
    expect(old.stderr).toContain("a/a.go:4:9 error");
    expect(old.code).toBe(0);
    // A vet finding in b, which vet never reaches past a's type error.
    writeFileSync(
      join(root, "b/b.go"),
      'package b\n\nimport (\n\t"fmt"\n\n\t"example.com/m/a"\n)\n\nfunc Two() {\n\tfmt.Printf("%d\\n", "s", a.One())\n}\n',
    );
    const r = cpilot(["check", "--new-only"], { cwd: root });
    expect(r.stderr).toContain(
      "it stopped at other errors before it reached b/b.go: your edits there were not checked",
    );
    expect(r.stderr).toContain("a/a.go:4:9 error");
    expect(r.code).toBe(1);
    // --json names the files it never reached
    const json = cpilot(["check", "--new-only", "--json"], { cwd: root });
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as { ok: boolean; runs: { unreached?: string[] }[] };
    expect(doc.ok).toBe(false);
    expect(doc.runs[0]?.unreached).toEqual(["b/b.go"]);
  },
  300_000,
);
