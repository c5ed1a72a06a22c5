import type { Diagnostic, Severity } from "../model/diagnostic.ts";
import type { RunResult } from "../model/outcome.ts";
import { VERSION } from "../version.ts";

/** The schema a SARIF 2.1.0 log names (OASIS, errata 01). */
const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

const LEVEL: Record<Severity, "error" | "warning" | "note"> = {
  error: "error",
  warning: "warning",
  info: "note",
};

/** One SARIF run per callback (its own `automationDetails.id`, so code scanning keeps them apart). */
export function toSarif(runs: readonly RunResult[], root: string): Record<string, unknown> {
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: runs
      .filter((r) => r.status !== "skipped" && r.status !== "replaced" && r.status !== "started")
      .map((run) => sarifRun(run, root)),
  };
}

function sarifRun(run: RunResult, root: string): Record<string, unknown> {
  const diagnostics = run.diagnostics ?? [];
  const tools = [...new Set(diagnostics.map((d) => d.tool))];
  const codes = [...new Set(diagnostics.map((d) => d.code).filter((c) => c !== ""))];
  return {
    tool: {
      driver: {
        name: tools.length === 1 ? (tools[0] as string) : run.callback,
        fullName: `${run.callback} (through cpilot ${VERSION})`,
        rules: codes.map((id) => ({ id })),
      },
    },
    automationDetails: { id: `cpilot/${run.callback}/` },
    originalUriBaseIds: { "%SRCROOT%": { uri: fileUri(root.endsWith("/") ? root : `${root}/`) } },
    invocations: [
      {
        executionSuccessful: run.status === "passed" || run.status === "silent",
        ...(run.exitCode !== null ? { exitCode: run.exitCode } : {}),
        ...(run.cached
          ? { properties: { fromCache: true, cachedAt: new Date(run.cached.at).toISOString() } }
          : {}),
      },
    ],
    results: diagnostics.map((d) => result(d, codes)),
  };
}

function result(d: Diagnostic, codes: readonly string[]): Record<string, unknown> {
  return {
    ...(d.code !== "" ? { ruleId: d.code, ruleIndex: codes.indexOf(d.code) } : {}),
    level: LEVEL[d.severity],
    message: { text: d.message },
    ...(d.file === "" ? {} : { locations: [{ physicalLocation: location(d) }] }),
    ...(d.baseline ? { baselineState: d.baseline } : {}),
  };
}

function location(d: Diagnostic): Record<string, unknown> {
  const artifactLocation = d.file.startsWith("/")
    ? { uri: fileUri(d.file) }
    : { uri: encodeURI(d.file), uriBaseId: "%SRCROOT%" };
  if (d.line <= 0) return { artifactLocation };
  const region: Record<string, number> = { startLine: d.line };
  if (d.column > 0) region.startColumn = d.column;
  if (d.endLine !== undefined && d.endLine >= d.line) region.endLine = d.endLine;
  if (d.endColumn !== undefined && d.endColumn > 0) region.endColumn = d.endColumn;
  return { artifactLocation, region };
}

function fileUri(absolute: string): string {
  return `file://${encodeURI(absolute)}`;
}
