import type { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

const GOLANGCI = [".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"];

/** Go: gofmt on the files, then golangci-lint when configured (it runs vet), else go vet. */
export function detectGo(p: ProjectFiles): Proposal[] {
  if (!p.has("go.mod")) return [];
  const golangci = p.first(...GOLANGCI);
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
  ];
}
