import ignore from "ignore";
import { bracketProblem } from "./_char-class.ts";
import { compileSimpleRules } from "./_simple-rules.ts";

export interface PathMatcher {
  /** `relPosixPath` is root-relative; an empty, absolute, `./` or `../` path never matches. */
  matches(relPosixPath: string): boolean;
}

/** As git reads a .gitignore: a rule holding a line break is two lines. */
function toLines(patterns: string | readonly string[]): string[] {
  const list: readonly string[] = typeof patterns === "string" ? [patterns] : patterns;
  return list.flatMap((rule) => rule.split("\n"));
}

function isRootRelative(path: string): boolean {
  return (
    path !== "" &&
    path !== "." &&
    path !== ".." &&
    !path.startsWith("/") &&
    !path.startsWith("./") &&
    !path.startsWith("../")
  );
}

/**
 * Compile gitignore-style rules into a matcher that agrees with git: a path matches when git
 * would ignore it given these rules as a .gitignore at the root. Nothing below a matched
 * directory can be re-included; invalid rules match what git matches with them.
 *
 * @example
 * const m = compilePatterns(["*.ts", "!*.test.ts"]);
 * m.matches("src/a.test.ts"); // false
 */
export function compilePatterns(patterns: string | readonly string[]): PathMatcher {
  const lines = toLines(patterns);
  const simple = compileSimpleRules(lines);
  if (simple !== null) return { matches: (path) => isRootRelative(path) && simple(path) };
  const engine = ignore({ ignorecase: false }).add(lines);
  return { matches: (path) => isRootRelative(path) && engine.ignores(path) };
}

export interface ValidateOptions {
  root?: string;
}

function ruleProblems(rule: string, root: string | undefined): string[] {
  if (rule.trim() === "")
    return ['it is blank, so it matches nothing (expected a rule such as "*.ts")'];
  if (rule.includes("\0")) return ["it contains a NUL byte, which no file name can"];
  if (/[\r\n]/.test(rule)) {
    return ['it contains a line break; a rule is one line ("?" matches a newline in a name)'];
  }
  if (rule.startsWith("#")) {
    return [
      'it is a comment in gitignore syntax, so it matches nothing (write "\\#" for a name starting with #)',
    ];
  }
  const body = rule.startsWith("!") ? rule.slice(1) : rule;
  if (body.trim() === "") {
    return [
      'it is only "!", which negates nothing (expected "!<rule>", or "\\!" for a file named !)',
    ];
  }
  const problems: string[] = [];
  if (/^[A-Za-z]:[\\/]/.test(body) || (root !== undefined && body.startsWith(`${root}/`))) {
    problems.push(
      'it is an absolute file-system path; rules are relative to the project root (a leading "/" anchors there, as in "/src/*.ts")',
    );
  }
  const segments = body.replace(/\/$/, "").split("/");
  if (segments.some((s) => s === "." || s === "..")) {
    problems.push(
      'it has a "." or ".." segment, which never matches: rules are relative to the project root',
    );
  } else if (segments.slice(1).includes("")) {
    problems.push('it has an empty segment ("//"), which never matches');
  }
  const brackets = bracketProblem(body);
  if (brackets !== null) problems.push(brackets);
  return problems;
}

/**
 * Report rules that cannot do what their author meant, one message per problem. A leading `/`
 * anchors at the project root, as in .gitignore, never a file-system path.
 */
export function validatePatterns(
  patterns: string | readonly string[],
  options: ValidateOptions = {},
): string[] {
  const list: readonly unknown[] = typeof patterns === "string" ? [patterns] : patterns;
  if (list.length === 0) {
    return [
      'Cannot use pattern list []: it is empty, so no file ever matches (expected a rule such as "*.ts")',
    ];
  }
  const problems: string[] = [];
  for (const rule of list) {
    if (typeof rule !== "string") {
      problems.push(`Cannot use pattern ${String(rule)}: expected a string such as "*.ts"`);
      continue;
    }
    for (const p of ruleProblems(rule, options.root))
      problems.push(`Cannot use pattern ${JSON.stringify(rule)}: ${p}`);
  }
  if (problems.length === 0 && list.every((r) => typeof r === "string" && r.startsWith("!"))) {
    problems.push(
      `Cannot use pattern list ${JSON.stringify(list)}: it has only "!" rules, so no file ever matches (put a rule such as "*" first)`,
    );
  }
  return problems;
}
