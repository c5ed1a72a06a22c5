/** A session id as one folder name: `[A-Za-z0-9_.-]`, at most 128, never a dot-name (`..` would name the folder above). */
export function sessionFolderName(session: string, fallback: string): string {
  const name = session.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 128);
  if (name === "") return fallback;
  return name.startsWith(".") ? `_${name.slice(1)}` : name;
}

/** What pruning may remove. */
export function isSessionFolderName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/.test(name);
}
