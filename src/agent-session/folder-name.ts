/**
 * A session id (whatever an agent sends) as one folder name under `.cpilot/`: only letters,
 * digits, `_`, `.` and `-`, at most 128 of them, never `.`, `..` or another dot-name (those
 * would name the folder above, or one cpilot keeps to itself). Empty becomes `fallback`.
 */
export function sessionFolderName(session: string, fallback: string): string {
  const name = session.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 128);
  if (name === "") return fallback;
  return name.startsWith(".") ? `_${name.slice(1)}` : name;
}

/** True for a name {@link sessionFolderName} can return: what pruning may remove. */
export function isSessionFolderName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/.test(name);
}
