import { join } from "node:path";
import type { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

const GOLANGCI = [".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"];

/**
 * Go, for one module (its folder is the callback's cwd, so `./...` is that module: a nested
 * module with its own go.mod gets its own callbacks): gofmt on the files, golangci-lint when
 * configured (it runs vet), else go vet, and go test in the background.
 */
export function detectGo(p: ProjectFiles): Proposal[] {
  if (!p.has("go.mod")) return [];
  // a nested module is linted with the project's one .golangci.yml, as projects that run
  // golangci-lint in each module do
  const golangci =
    p.first(...GOLANGCI) ??
    (p.top !== p.root && GOLANGCI.some((f) => p.textAt(join(p.top, f)) !== undefined)
      ? "the project's .golangci config"
      : undefined);
  return [
    {
      why: "go.mod",
      callback: {
        name: "gofmt",
        description: "format",
        pattern: "*.go",
        run: ["gofmt", "-w", "{files}"],
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
          why: "go.mod",
          callback: {
            name: "go-vet",
            description: "vet",
            pattern: ["*.go", "go.mod"],
            run: "go vet ./...",
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
