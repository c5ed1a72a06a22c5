/** From the environment only, so a CI secret never lands in the repository. */
export interface RemoteCacheSettings {
  readonly url: string;
  readonly token: string;
  /** Sent as `teamId` when it starts with `team_`, else as `slug`. */
  readonly team: string;
  /** An entry whose signature does not verify is ignored. */
  readonly signatureKey: string | null;
  readonly writeAsked: boolean;
  readonly lookupBudgetMs?: number;
}

export type SettingsResult =
  | { readonly kind: "off" }
  | { readonly kind: "on"; readonly settings: RemoteCacheSettings }
  /** Said once; the checks run without a remote cache. */
  | { readonly kind: "bad"; readonly problem: string };

export function remoteCacheSettings(
  env: Readonly<Record<string, string | undefined>>,
): SettingsResult {
  const raw = env.CPILOT_REMOTE_CACHE_URL?.trim() ?? "";
  if (raw === "") return { kind: "off" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return bad(`CPILOT_REMOTE_CACHE_URL "${raw}" is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return bad(`CPILOT_REMOTE_CACHE_URL "${raw}" is not an http(s) URL`);
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "")
    return bad(
      `CPILOT_REMOTE_CACHE_URL "${url.origin}…" carries credentials, a query or a fragment: give the token in CPILOT_REMOTE_CACHE_TOKEN`,
    );
  const token = env.CPILOT_REMOTE_CACHE_TOKEN ?? "";
  if (token === "") return bad("CPILOT_REMOTE_CACHE_TOKEN is not set");
  // a header value cannot hold a line break: one would end the header early
  if (/[\r\n\0]/.test(token)) return bad("CPILOT_REMOTE_CACHE_TOKEN holds a line break");
  const team = env.CPILOT_REMOTE_CACHE_TEAM ?? "";
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(team))
    return bad(
      team === ""
        ? "CPILOT_REMOTE_CACHE_TEAM is not set"
        : `CPILOT_REMOTE_CACHE_TEAM "${team}" is not a team name (letters, digits, . _ -)`,
    );
  const key = env.CPILOT_REMOTE_CACHE_SIGNATURE_KEY ?? "";
  const budget = env.CPILOT_REMOTE_CACHE_TIMEOUT_MS ?? "";
  if (
    budget !== "" &&
    !(/^\d{1,6}$/.test(budget) && Number(budget) >= 1 && Number(budget) <= 600_000)
  )
    return bad(
      `CPILOT_REMOTE_CACHE_TIMEOUT_MS "${budget}" is not a number of milliseconds from 1 to 600000`,
    );
  return {
    kind: "on",
    settings: {
      url: `${url.origin}${url.pathname.replace(/\/+$/, "")}`,
      token,
      team,
      signatureKey: key === "" ? null : key,
      writeAsked: env.CPILOT_REMOTE_CACHE_WRITE === "1",
      ...(budget !== "" ? { lookupBudgetMs: Number(budget) } : {}),
    },
  };
}

function bad(problem: string): SettingsResult {
  return { kind: "bad", problem };
}
