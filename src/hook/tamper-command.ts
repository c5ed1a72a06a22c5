/**
 * Shell command text that reaches for what decides whose a change is: cpilot's records, the
 * repository git is pointed at, the `.git` entry itself. Read after the command ran, so it
 * decides nothing about running it; a hit only makes cpilot trust its records less. It
 * over-reads on purpose (a word in a comment counts), and a command that hides its words
 * (encoded, built at run time) is not seen: the records are a convenience, the checks of
 * commits and CI read content.
 */

/** A sentence part for the agent ("it names …"); null when nothing in it reaches there. */
export function tamperingIn(command: string, privateDir: string | null): string | null {
  const text = command.normalize("NFKC");
  if (privateDir !== null && text.includes(privateDir)) return "it names cpilot's private folder";
  for (const [pattern, what] of PATTERNS) if (pattern.test(text)) return what;
  return null;
}

/** Before a name: the start, a space, a quote, a slash, a shell operator. */
const EDGE = String.raw`(?:^|[\s'"\`=/;&|()<>{}$])`;
/** After a name: the end, a space, a quote, a shell operator. */
const END = String.raw`(?=$|[\s'"\`;&|()<>{}])`;

const PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\.git[/\\]+cpilot\b/i, "it names cpilot's records in the git folder (.git/cpilot)"],
  [
    /turn-records|cpilot-\d+|\$\{?XDG_RUNTIME_DIR|\/run\/user\//,
    "it names cpilot's private folder",
  ],
  [/\bCPILOT_[A-Z0-9_]*/, "it names a CPILOT_ setting"],
  [/\bcpilot\b[^|;&\n]*\bhook\b/, "it calls cpilot's hooks itself"],
  [/\bGIT_(?:DIR|WORK_TREE|COMMON_DIR)\b/, "it sets where git looks (GIT_DIR, GIT_WORK_TREE)"],
  [
    /--(?:git-dir|work-tree|separate-git-dir)\b/,
    "it points git at another repository or work tree",
  ],
  [
    /\bcore\.(?:worktree|bare|hookspath)\b/i,
    "it changes core.worktree, core.bare or core.hooksPath",
  ],
  [/\bgitdir\s*:/i, "it writes a `gitdir:` line (a .git that points elsewhere)"],
  [
    new RegExp(`${EDGE}\\.git${END}`),
    "it names the .git folder itself (moved, removed or replaced)",
  ],
];
