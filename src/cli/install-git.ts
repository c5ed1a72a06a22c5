import { installGitHook, uninstallGitHook } from "../githook/install.ts";
import { say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";

export function installGitCommand(
  action: "install" | "uninstall",
  args: string[],
  cwd: string,
): number {
  if (args.length > 1) {
    throw new CpilotError(
      `Cannot ${action} the git hook with "${args.slice(1).join(" ")}": it takes no options`,
      {
        hint: `usage: cpilot ${action} git`,
      },
    );
  }
  const lines = action === "install" ? installGitHook(cwd) : uninstallGitHook(cwd);
  for (const line of lines) say(line);
  return 0;
}
