import { join } from "node:path";
import { RunEvidence } from "./evidence.ts";
import type { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

const GOLANGCI = [".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"];

/**
 * Per Go module (a nested go.mod gets its own callbacks): gofmt, golangci-lint when
 * configured (it runs vet) else go vet, and go test in the background.
 */
export function detectGo(p: ProjectFiles): Proposal[] {
  if (!p.has("go.mod")) return [];
  // a nested module is linted with the project's one .golangci.yml
  const golangci =
    p.first(...GOLANGCI) ??
    (p.top !== p.root && GOLANGCI.some((f) => p.textAt(join(p.top, f)) !== undefined)
      ? "the project's .golangci config"
      : undefined);
  const evidence = new RunEvidence(p);
  const formatter = goFormatter(evidence);
  const vet = goVet(evidence);
  return [
    {
      why: formatter.why,
      callback: {
        name: formatter.name,
        description: "format",
        pattern: "*.go",
        run: formatter.run,
        timeout: 60,
        fixes: true,
      },
    },
    golangci
      ? {
          why: golangci,
          callback: {
            name: "golangci-lint",
            description: "lint",
            pattern: ["*.go", "go.mod"],
            run: "golangci-lint run ./...",
            timeout: 300,
            overlap: "replace",
          },
        }
      : {
          why: vet.why,
          callback: {
            name: "go-vet",
            description: "vet",
            pattern: ["*.go", "go.mod"],
            run: vet.run,
            timeout: 300,
            overlap: "replace",
          },
        },
    {
      why: "go.mod",
      callback: {
        name: "go-test",
        description: "tests, in the background",
        pattern: ["*.go", "go.mod"],
        run: "go test ./...",
        timeout: 600,
        blocking: false,
        overlap: "replace",
      },
    },
  ];
}

/** Nearest evidence first; else plain gofmt, whose output every Go formatter accepts. */
function goFormatter(evidence: RunEvidence): { name: string; run: string[]; why: string } {
  const lines = [...evidence.mentions("gofumpt"), ...evidence.mentions("gofmt")];
  const own = lines.some((l) => l.atRoot !== true);
  const nearest = (tool: string) =>
    evidence.mentions(tool).filter((l) => !own || l.atRoot !== true);
  const gofumpt = nearest("gofumpt");
  const gofmt = nearest("gofmt");
  if (gofumpt.length > 0 && gofmt.length === 0)
    return {
      name: "gofumpt",
      run: ["gofumpt", "-w", "{files}"],
      why: `${gofumpt[0]!.file} runs gofumpt`,
    };
  const simplify = gofmt.find((l) => /\sgofmt\s+(-\w+\s+)*-s\b/.test(` ${l.line}`));
  if (simplify !== undefined)
    return {
      name: "gofmt",
      run: ["gofmt", "-s", "-w", "{files}"],
      why: `go.mod; ${simplify.file} runs gofmt -s`,
    };
  return { name: "gofmt", run: ["gofmt", "-w", "{files}"], why: "go.mod" };
}

/** The analyzers `go test` runs before the tests (`go help test`), by their go vet names. */
const GO_TEST_VET =
  "-atomic -bools -buildtag -errorsas -ifaceassert -nilfunc -printf -stringintconv";

/**
 * All of go vet, unless the project shows it runs `go test` and never `go vet`: then what
 * its tests enforce, the analyzers `go test` runs. A full vet would fail on findings the
 * project never checks (an assembly frame name `asmdecl` reports), on every edit.
 */
function goVet(evidence: RunEvidence): { run: string; why: string } {
  const go = evidence.mentions("go");
  const runs = (verb: string) => go.some((l) => new RegExp(`\\bgo\\s+${verb}\\b`).test(l.line));
  if (runs("vet") || !runs("test")) return { run: "go vet ./...", why: "go.mod" };
  const test = go.find((l) => /\bgo\s+test\b/.test(l.line))!;
  return {
    run: `go vet ${GO_TEST_VET} ./...`,
    why: `go.mod; ${test.file} runs go test, nothing runs go vet: the analyzers go test runs`,
  };
}
