import { readFileSync } from "node:fs";
import { join } from "node:path";
import { diffArrays } from "diff";
import { runGit } from "../../match/git.ts";

/** Past this many changed lines, a file's names are not gathered (the diff would cost too much). */
const MAX_EDIT = 4000;
/** Edited files whose changed lines are read per run, at most. */
const MAX_FILES = 20;

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * A language's own words: built-in types and keywords of TypeScript/JavaScript, Go, Rust and
 * Python. They sit on any changed line (`const n: number`) and in many messages about old code
 * (`Type 'string' is not assignable to type 'number'`), so they name no code of the edit: on
 * unjs/citty an old error in a file never touched was told as the agent's and held its stop.
 */
const LANGUAGE_WORDS = new Set(
  (
    "string number boolean bigint symbol object any unknown never void null undefined true " +
    "false this super const let var function return export import from type interface class " +
    "extends implements readonly public private protected static async await new typeof keyof " +
    "int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr float32 float64 " +
    "complex64 complex128 byte rune bool error nil func struct map chan package " +
    "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 str char String Self self " +
    "impl pub mut ref dyn Box Vec Option Some None Result Ok Err " +
    "float list dict tuple set bytes True False def lambda"
  ).split(" "),
);

/**
 * The identifiers on the lines an edit added or removed (against the last commit) in the
 * `edited` files: what a caller elsewhere may now fail on (a changed signature, a renamed
 * function). Names shorter than 3 characters are left out (`f`, `x` are everywhere), and so
 * are a language's own words.
 */
export function editedNames(root: string, edited: Iterable<string>): Set<string> {
  const names = new Set<string>();
  let files = 0;
  for (const file of edited) {
    if (files++ >= MAX_FILES) break;
    let current: string[];
    try {
      current = readFileSync(join(root, file), "utf8").split("\n");
    } catch {
      continue;
    }
    const shown = runGit(root, ["show", `HEAD:./${file}`]);
    const before = shown.ok ? shown.stdout.split("\n") : [];
    const parts = diffArrays(before, current, { maxEditLength: MAX_EDIT });
    if (parts === undefined) continue;
    for (const part of parts) {
      if (!part.added && !part.removed) continue;
      for (const line of part.value)
        for (const name of line.match(IDENTIFIER) ?? [])
          if (name.length >= 3 && !LANGUAGE_WORDS.has(name)) names.add(name);
    }
  }
  return names;
}

/**
 * The code a checker's message names: what it quotes (`x`, 'x', "x"), a member (`f.VarP`
 * gives VarP), what follows `undefined: `, and any camelCase or snake_case word. Plain
 * words ("bound", "lifetime") are not code.
 */
export function namesInMessage(message: string): string[] {
  const out: string[] = [];
  for (const m of message.matchAll(/[`'"‘“]([^`'"’”\n]{1,200})[`'"’”]/g))
    out.push(...((m[1] ?? "").match(IDENTIFIER) ?? []));
  for (const m of message.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)/g)) out.push(m[1] ?? "");
  for (const m of message.matchAll(/undefined: ([A-Za-z_][A-Za-z0-9_.]*)/g))
    out.push(...((m[1] ?? "").match(IDENTIFIER) ?? []));
  for (const word of message.match(IDENTIFIER) ?? [])
    if (/[a-z][A-Z]|[A-Za-z]_[A-Za-z]/.test(word)) out.push(word);
  return out;
}
