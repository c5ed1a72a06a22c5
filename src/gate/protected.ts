import { STATE_DIR } from "../util/state-layout.ts";
/**
 * The built-in protected names (.git, secrets, .cpilot), compared as a lenient file system
 * might: case-insensitive, NFKC, marks and invisible characters dropped (HFS+), and
 * Windows' trailing dots, spaces, `::$DATA` streams and 8.3 short names folded away.
 */

export function skeleton(segment: string): string {
  return segment
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, "")
    .normalize("NFKC")
    .replace(/:.*$/s, "")
    .replace(/[. ]+$/, "");
}

function segments(relPath: string): string[] {
  return relPath.split(/[/\\]/).filter((s) => s !== "" && s !== ".");
}

/** At any depth. */
export function isGitPath(relPath: string): boolean {
  return segments(relPath).some((s) => {
    const k = skeleton(s);
    return k === ".git" || k === "git~1";
  });
}

export function isCpilotPath(relPath: string): boolean {
  const first = segments(relPath)[0];
  return first !== undefined && skeleton(first) === STATE_DIR;
}

/** They ship with projects and hold no secrets. */
const ENV_EXAMPLES = new Set([".env.example", ".env.sample", ".env.template"]);
const SECRET_NAMES = new Set(["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".pgpass"]);
const SECRET_EXTENSIONS = [".pem", ".key", ".p12", ".pfx"];

/** By file name (`.env*`, keys); else null. */
export function secretKind(relPath: string): string | null {
  const name = segments(relPath).at(-1);
  if (name === undefined) return null;
  const k = skeleton(name);
  if (k.startsWith(".env")) return ENV_EXAMPLES.has(k) ? null : "an environment file (.env*)";
  if (SECRET_NAMES.has(k)) return "a credentials file";
  if (SECRET_EXTENSIONS.some((ext) => k.endsWith(ext))) return "a private key or certificate";
  return null;
}
