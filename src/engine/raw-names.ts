import { Buffer } from "node:buffer";
import { writeFileSync } from "node:fs";
import { encodeBytes, hasEscapedBytes } from "../util/path-bytes.ts";

/**
 * bash reads the command line back from the NUL-separated file `$0` (and removes it), sets
 * CP_CHANGED_FILES (and CP_CHANGED_FILE, when `$1` says so) from the NUL list of the run's
 * files, and becomes the command: bash keeps bytes as they are, whatever the locale.
 */
const TRAMPOLINE = `mapfile -d '' -t __cp_argv < "$0" && rm -f -- "$0" || exit 126
mapfile -d '' -t __cp_files < "$CP_CHANGED_FILES_NUL"
printf -v CP_CHANGED_FILES '%s\\n' "\${__cp_files[@]}"
export CP_CHANGED_FILES="\${CP_CHANGED_FILES%$'\\n'}"
if [ "$1" = per-file ]; then export CP_CHANGED_FILE="\${__cp_files[0]}"; fi
exec -- "\${__cp_argv[@]}"`;

/**
 * A process's command line and environment so that file names that are not UTF-8 reach it
 * byte for byte. A string holds such a name with each stray byte kept as an escape (see
 * path-bytes.ts), but a process's arguments and environment are passed on as UTF-8, which
 * would turn each of those bytes into U+FFFD. When any name has one, the command line is
 * written to a file as bytes and bash (which carries bytes untouched) starts the command
 * from it. Otherwise, and nearly always, the command line is returned as it is.
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
