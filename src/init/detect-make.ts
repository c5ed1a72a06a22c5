import type { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

const TARGETS = ["lint", "fmt", "format", "check", "typecheck"];

const MAKEFILES = [
  ["Makefile", "make"],
  ["makefile", "make"],
  ["GNUmakefile", "make"],
  ["justfile", "just"],
  ["Justfile", "just"],
] as const;

export function makeTargets(
  p: ProjectFiles,
): { runner: string; file: string; targets: string[] } | undefined {
  for (const [file, runner] of MAKEFILES) {
    const text = p.text(file);
    if (text === undefined) continue;
    const found = TARGETS.filter(
      (t) =>
        new RegExp(`^${t}\\s*:(?!=)`, "m").test(text) ||
        (runner === "just" && new RegExp(`^${t}(\\s[^:]*)?:`, "m").test(text)),
    );
    if (found.length > 0) return { runner, file, targets: found };
  }
  return undefined;
}

/** Only when no tool was found for the job: a project whose checks live in a Makefile runs them that way. */
export function detectMake(p: ProjectFiles, haveOthers: boolean, pattern: string[]): Proposal[] {
  const found = makeTargets(p);
  if (!found || haveOthers) return [];
  return found.targets.map((t) => ({
    why: `${found.file} target "${t}"`,
    callback: {
      name: `${found.runner}-${t}`,
      description: `${found.runner} ${t}`,
      pattern,
      run: `${found.runner} ${t}`,
      timeout: 300,
      overlap: "replace" as const,
      ...(t === "fmt" || t === "format" ? { fixes: true } : {}),
    },
  }));
}

/** Only when no test runner was found otherwise (a Django app run by `make test`). */
export function detectMakeTest(p: ProjectFiles, haveTests: boolean): Proposal[] {
  if (haveTests) return [];
  for (const [file, runner] of MAKEFILES) {
    const text = p.text(file);
    if (text === undefined || !/^test\s*:(?!=)/m.test(text)) continue;
    return [
      {
        why: `${file} target "test"`,
        callback: {
          name: `${runner}-test`,
          description: "the project's tests, in the background",
          pattern: ["*", "!*.md"],
          run: `${runner} test`,
          timeout: 900,
          blocking: false,
          overlap: "replace",
        },
      },
    ];
  }
  return [];
}
