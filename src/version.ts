/** cpilot's version, kept in step with package.json by tests/release/version.test.ts. */
export const VERSION = "0.1.0";

// Baked in by scripts/compile.ts with `bun build --define`; absent when run from source.
declare const CPILOT_BUILD_COMMIT: string | undefined;
declare const CPILOT_BUILD_TARGET: string | undefined;

export const BUILD_INFO: string =
  typeof CPILOT_BUILD_COMMIT === "string" && typeof CPILOT_BUILD_TARGET === "string"
    ? `commit ${CPILOT_BUILD_COMMIT}, ${CPILOT_BUILD_TARGET}`
    : "source";

/** What `cpilot --version` prints: "0.1.0 (commit 1a2b3c4, linux-x64)". */
export const VERSION_LINE = `${VERSION} (${BUILD_INFO})`;
