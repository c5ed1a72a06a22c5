// Preloaded by scripts/hook-modules.ts into `bun main.ts hook claude`: logs every module
// file Bun loads (one path a line to $HOOK_MODULES_LOG) and, with $HOOK_MODULES_CALLS set,
// traces calls between the checkout's own files to find the deepest chain of calls that
// go from one file to another (the "hops" a reader follows). Instrumentation only: it never
// runs in cpilot itself.
import { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

const log = process.env.HOOK_MODULES_LOG as string;
/** Every module file loaded, written to `log` at exit (the hook call ends with process.exit). */
const loaded = new Set<string>();
const seen = new Set<string>();
const callsLog = process.env.HOOK_MODULES_CALLS;
/** The checkout being measured: only its main.ts and src/ are traced. */
const root = process.env.HOOK_MODULES_ROOT as string;

type Frame = { file: string; name: string };
const chains = new AsyncLocalStorage<readonly Frame[]>();
const MAIN: Frame = { file: "main.ts", name: "(top level)" };
let deepest: readonly Frame[] = [];
const edges = new Set<string>();

/** Wrap an exported function so each call records the chain of files it was reached through. */
function wrap(file: string, name: string, fn: unknown): unknown {
  if (typeof fn !== "function") return fn;
  if (/^class[\s{]/.test(Function.prototype.toString.call(fn))) return fn;
  const original = fn as (...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    // A call made outside any traced function comes from main.ts itself (its top level):
    // main.ts's own calls (the set-aside check, the command) are steps of the path too.
    const chain = chains.getStore() ?? (file === "main.ts" ? [] : [MAIN]);
    const last = chain[chain.length - 1];
    if (last !== undefined && last.file === file) return original.apply(this, args);
    if (last !== undefined) edges.add(`${last.file} -> ${file}`);
    const next = [...chain, { file, name }];
    if (next.length > deepest.length) deepest = next;
    return chains.run(next, () => original.apply(this, args));
  };
  Object.defineProperty(wrapped, "name", { value: original.name });
  return Object.assign(wrapped, original);
}
(globalThis as Record<string, unknown>).__hookModulesWrap = wrap;

/** The source with its exported functions reassigned to traced wrappers at the end. */
function traced(path: string, source: string): string {
  const rel = path.slice(root.length + 1);
  const names = new Bun.Transpiler({ loader: "ts" })
    .scan(source)
    .exports.filter((name) => name !== "default");
  // `export const f = () => ...` cannot be reassigned: make it `let` for the measurement.
  const body = source.replace(/^export const /gm, "export let ");
  const wraps = names
    .map(
      (n) =>
        `try { ${n} = globalThis.__hookModulesWrap(${JSON.stringify(rel)}, ${JSON.stringify(n)}, ${n}); } catch {}`,
    )
    .join("\n");
  return `${body}\n;${wraps}\n`;
}

Bun.plugin({
  name: "hook-modules",
  setup(build) {
    // Every import, resolved here only to be logged (a CommonJS dependency must not go
    // through onLoad, which would read it as ESM).
    build.onResolve({ filter: /.*/ }, (args) => {
      if (/^(node|bun):/.test(args.path) || args.importer === "") return undefined;
      const key = `${dirname(args.importer)}\0${args.path}`;
      if (!seen.has(key)) {
        seen.add(key);
        try {
          loaded.add(Bun.resolveSync(args.path, dirname(args.importer)));
        } catch {}
      }
      return undefined;
    });
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      loaded.add(args.path);
      const source = readFileSync(args.path, "utf8");
      const own = args.path === `${root}/main.ts` || args.path.startsWith(`${root}/src/`);
      return { contents: callsLog && own ? traced(args.path, source) : source, loader: "ts" };
    });
  },
});

process.on("exit", () => {
  writeFileSync(log, [...loaded].join("\n"));
  if (callsLog) {
    writeFileSync(
      callsLog,
      JSON.stringify({ deepest: deepest.map((f) => `${f.file} ${f.name}`), edges: [...edges] }),
    );
  }
});
