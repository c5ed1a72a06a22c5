/**
 * A patch sent through Codex's shell tool. Codex does not run `apply_patch <<'EOF' … EOF` (or `cd
 * <dir> && apply_patch <<'EOF'`) in a shell: it parses that statement itself, takes the heredoc
 * unexpanded and applies the patch. cpilot reads exactly those plain spellings; any other command
 * that may hold a patch is refused rather than guessed at.
 */
export type ShellPatch =
  | { readonly kind: "none" }
  /** A spelling cpilot does not read: refuse it. */
  | { readonly kind: "unsure" }
  /** `cd`: relative to the command's folder. */
  | { readonly kind: "patch"; readonly text: string; readonly cd?: string };

const NAME = /apply_?patch/i;

/**
 * It holds a whole patch, or names the program beside a heredoc. Any spelling but the two
 * read below (`apply''_patch`, a variable, a pipe) is refused. A grep for one marker is no patch.
 */
function mayBePatch(text: string): boolean {
  const whole = text.includes("*** Begin Patch") && text.includes("*** End Patch");
  return whole || (NAME.test(text) && text.includes("<<"));
}

/** Names cpilot reads the same as Codex and bash: no quotes, `$`, `~`, globs or escapes. */
const PLAIN_DIR = "[A-Za-z0-9._/+,:@%=][A-Za-z0-9._/+,:@%=-]*";
const FORM = new RegExp(
  "^(?:cd[ \\t]+" +
    `(?:(${PLAIN_DIR})|'([^'\\n]+)'|"([A-Za-z0-9._/ +,:@%=-]+)")` +
    "[ \\t]+&&[ \\t]+)?" +
    "(?:apply_patch|applypatch)[ \\t]*<<[ \\t]*" +
    "(?:'([A-Za-z_][A-Za-z0-9_]*)'|\"([A-Za-z_][A-Za-z0-9_]*)\"|([A-Za-z_][A-Za-z0-9_]*))" +
    "[ \\t]*\\n",
);

/** `cmd`, or the script of `bash -lc`. */
export function shellPatch(command: string): ShellPatch {
  if (!mayBePatch(command)) return { kind: "none" };
  const m = FORM.exec(command);
  if (m === null) return { kind: "unsure" };
  const cd = m[1] ?? m[2] ?? m[3];
  const quoted = m[4] ?? m[5];
  const delimiter = (quoted ?? m[6]) as string;
  const rest = command.slice(m[0].length).split("\n");
  const end = rest.indexOf(delimiter);
  if (end === -1) return { kind: "unsure" };
  const body = rest.slice(0, end);
  const after = rest.slice(end + 1).join("\n");
  // Anything after the heredoc, or a body line a heredoc reader might take for its end,
  // is a spelling cpilot does not read.
  if (after.trim() !== "") return { kind: "unsure" };
  if (body.some((l) => l.startsWith(delimiter) || l.trim() === delimiter))
    return { kind: "unsure" };
  // An unquoted delimiter: a shell would expand the body, Codex does not.
  if (quoted === undefined && body.some((l) => /[$`\\]/.test(l))) return { kind: "unsure" };
  return { kind: "patch", text: body.join("\n"), ...(cd === undefined ? {} : { cd }) };
}

const APPLY_PATCH = ["apply_patch", "applypatch"];

/** `bash -lc <script>`, …; null otherwise. */
function shellScript(argv: readonly string[]): string | null {
  const stem = (p: string) => (p.split("/").pop() ?? "").replace(/\.[^.]*$/, "").toLowerCase();
  const flagged = (shell: string, flag: string, script: string): string | null => {
    const name = stem(shell);
    if (["bash", "zsh", "sh"].includes(name) && (flag === "-lc" || flag === "-c")) return script;
    if (["pwsh", "powershell"].includes(name) && flag.toLowerCase() === "-command") return script;
    if (name === "cmd" && flag.toLowerCase() === "/c") return script;
    return null;
  };
  const [a, b, c, d] = argv;
  if (argv.length === 3) return flagged(a as string, b as string, c as string);
  if (argv.length === 4 && /^(pwsh|powershell)$/.test(stem(a as string)))
    return (b as string).toLowerCase() === "-noprofile"
      ? flagged(a as string, c as string, d as string)
      : null;
  return null;
}

/** `apply_patch <patch>` is a patch as it stands; a shell's script is read as above. */
export function argvPatch(argv: readonly string[]): ShellPatch {
  if (argv.length === 2 && APPLY_PATCH.includes(argv[0] as string))
    return { kind: "patch", text: argv[1] as string };
  const script = shellScript(argv);
  if (script !== null) return shellPatch(script);
  return mayBePatch(argv.join("\n")) ? { kind: "unsure" } : { kind: "none" };
}
