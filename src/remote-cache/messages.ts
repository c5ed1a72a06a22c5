export const remoteCacheText = {
  badSettings: (problem: string) =>
    `cpilot: remote cache off: ${problem}\nhint: see "Remote cache" in docs/ci.md`,
  unreachable: (origin: string, why: string) =>
    `cpilot: remote cache ${origin} unreachable (${why}): checks ran without it`,
  tooSlow: (origin: string, ms: number) =>
    `cpilot: remote cache ${origin} did not answer within ${ms} ms: checks ran without it`,
  refused: (origin: string, status: number, what: string) =>
    `cpilot: remote cache ${origin} answered HTTP ${status}${status === 401 || status === 403 ? " (the token is refused)" : ""} to ${what}: checks ran without it`,
  unsigned: (count: number) =>
    `cpilot: ${count} remote cache ${count === 1 ? "entry" : "entries"} ignored: the signature did not verify with CPILOT_REMOTE_CACHE_SIGNATURE_KEY; ${count === 1 ? "its check" : "their checks"} ran`,
  invalid: (count: number) =>
    `cpilot: ${count} remote cache ${count === 1 ? "entry" : "entries"} ignored: not a cpilot result (too large, or not its shape); ${count === 1 ? "its check" : "their checks"} ran`,
  writeRefused: (why: string) => `cpilot: CPILOT_REMOTE_CACHE_WRITE=1 ignored: ${why}`,
  writeFailed: (origin: string, why: string) =>
    `cpilot: results not written to the remote cache ${origin}: ${why}`,
} as const;
