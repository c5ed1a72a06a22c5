/**
 * `cpilot doctor`: for each agent found here, is cpilot wired in (hooks, MCP)? Does the
 * project's config load? Does every callback's command exist? A table for people, or
 * `--json`; exit 0 when all is well, 1 when a problem was found.
 */
import { diagnose } from "../doctor/diagnose.ts";
import { renderDoctor } from "../doctor/render.ts";
import { platformLimits } from "../platform/limits.ts";
import { writeErr, writeOut } from "../platform/stdio.ts";
import { parseFlags } from "./_common.ts";

export { firstProgram } from "../doctor/callback-command.ts";

const USAGE = "cpilot doctor [--json] [--config PATH]";

export async function doctorCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  const { values } = parseFlags(
    args,
    { json: { type: "boolean" }, config: { type: "string" } },
    USAGE,
  );
  const report = await diagnose(ctx.cwd, values.config ? { config: values.config } : {});
  writeOut(`${values.json ? JSON.stringify(report, null, 2) : renderDoctor(report)}\n`);
  // What this platform does differently from Linux, where the test suite runs end to end.
  for (const limit of platformLimits()) writeErr(`note (${process.platform}): ${limit}\n`);
  return report.problems === 0 ? 0 : 1;
}
