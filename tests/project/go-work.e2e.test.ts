/**
 * A go.work that leaves a module out (hashicorp/consul leaves two e2e modules out, since
 * they claim to be its main module): go run in that module fails in workspace mode, so it
 * gets no callbacks of its own. With the real go, where it is installed.
 */
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

const go = spawnSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).stdout.trim();

test.skipIf(!go)(
  "init leaves a module go.work does not use alone, and the first check --all passes",
  () => {
    const root = tempDir("cpilot-gowork-", { git: true });
    writeFiles(root, {
      "go.work":
        "go 1.19\n\n// e2e is left out: it claims to be the main module\nuse (\n\t.\n\t./api\n)\n",
      "go.mod": "module example.com/root\n\ngo 1.19\n",
      "root.go": "package root\n",
      "api/go.mod": "module example.com/api\n\ngo 1.19\n",
      "api/api.go": "package api\n",
      "e2e/go.mod": "module example.com/root\n\ngo 1.19\n",
      "e2e/e2e.go": "package e2e\n",
    });
    execFileSync("git", ["add", "-A"], { cwd: root });
    execFileSync("git", ["commit", "-qm", "modules"], { cwd: root });
    const env = {
      PATH: `${dirname(go)}:/usr/local/bin:/usr/bin:/bin`,
      GOPROXY: "off",
      GOFLAGS: "",
      GOCACHE: tempDir("cpilot-gocache-"),
      CI: "",
    };
    const init = cpilot(["init", "--yes", "--format", "json"], { cwd: root, env });
    expect(init.code).toBe(0);
    expect(init.stderr).toContain("e2e: left out (go), not in go.work's use list");
    expect(init.stderr).toContain("go-vet-api");
    expect(init.stderr).not.toContain("go-vet-e2e");
    const check = cpilot(["check", "--all"], { cwd: root, env });
    expect({ code: check.code, out: check.code === 0 ? "" : check.stderr }).toEqual({
      code: 0,
      out: "",
    });
  },
  120_000,
);
