import { Buffer } from "node:buffer";
import { writeFileSync } from "node:fs";
import { encodeBytes, hasEscapedBytes } from "../util/path-bytes.ts";

// bash reads the command line back from the NUL file `$0`, sets CP_CHANGED_FILES from the
// NUL list and becomes the command: bash keeps bytes as they are, whatever the locale.
const TRAMPOLINE = `mapfile -d '' -t __cp_argv < "$0" && rm -f -- "$0" || exit 126
mapfile -d '' -t __cp_files < "$CP_CHANGED_FILES_NUL"
printf -v CP_CHANGED_FILES '%s\\n' "\${__cp_files[@]}"
export CP_CHANGED_FILES="\${CP_CHANGED_FILES%$'\\n'}"
if [ "$1" = per-file ]; then export CP_CHANGED_FILE="\${__cp_files[0]}"; fi
exec -- "\${__cp_argv[@]}"`;

/**
 * A command line and environment that pass non-UTF-8 file names byte for byte: arguments and
 * environment go out as UTF-8, which would turn each stray byte into U+FFFD, so such a command
 * line is written to a file and started by bash. Nearly always returned as it is.
 */
export function byteExactLaunch(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  argvFile: string,
): { command: string; args: string[]; wroteArgvFile: boolean } {
  const line = [command, ...args];
  if (!line.some(hasEscapedBytes) && !hasEscapedBytes(env.CP_CHANGED_FILES ?? "")) {
    return { command, args: [...args], wroteArgvFile: false };
  }
  writeFileSync(argvFile, Buffer.concat(line.flatMap((a) => [encodeBytes(a), Buffer.from([0])])), {
    mode: 0o600,
  });
  const perFile = env.CP_CHANGED_FILE !== undefined ? "per-file" : "batch";
  return {
    command: "bash",
    args: ["--norc", "--noprofile", "-c", TRAMPOLINE, argvFile, perFile],
    wroteArgvFile: true,
  };
}
