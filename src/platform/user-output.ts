import type * as NodeAsyncHooks from "node:async_hooks";
import type * as NodeUtil from "node:util";
import { nodeBuiltin } from "./builtin.ts";

interface Sink {
  readonly write: (chunk: string | Uint8Array) => void;
  open: boolean;
}

let storage: NodeAsyncHooks.AsyncLocalStorage<Sink> | null = null;

const CONSOLE_METHODS = ["log", "info", "debug", "warn", "error", "dir", "table"] as const;

/**
 * What code started through `run` prints goes to `write`, as a shell callback's output goes to
 * its log; concurrent runs each get their own (AsyncLocalStorage). A late print after `close`
 * goes where it would have gone. Installed on first use, so shell-only configs never pay.
 */
export function capturePrints(write: (chunk: string | Uint8Array) => void): {
  run<T>(fn: () => T): T;
  close(): void;
} {
  const sink: Sink = { write, open: true };
  const als = install();
  return {
    run: (fn) => als.run(sink, fn),
    close: () => {
      sink.open = false;
    },
  };
}

function current(): Sink | undefined {
  const sink = storage?.getStore();
  return sink?.open ? sink : undefined;
}

function install(): NodeAsyncHooks.AsyncLocalStorage<Sink> {
  if (storage !== null) return storage;
  const { AsyncLocalStorage } = nodeBuiltin<typeof NodeAsyncHooks>("node:async_hooks");
  const { format } = nodeBuiltin<typeof NodeUtil>("node:util");
  storage = new AsyncLocalStorage<Sink>();
  const methods = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const name of CONSOLE_METHODS) {
    // Whatever is there now: in hook and MCP mode, already a redirect to stderr.
    const previous = methods[name]!;
    methods[name] = (...args: unknown[]): void => {
      const sink = current();
      if (sink) sink.write(`${format(...args)}\n`);
      else previous.apply(console, args);
    };
  }
  divertWrites("stdout");
  divertWrites("stderr");
  return storage;
}

const diverted = new WeakSet<object>();

function divertWrites(name: "stdout" | "stderr"): void {
  // Hook mode has made process.stdout a getter (to stderr): read through it, not past it.
  const own = Object.getOwnPropertyDescriptor(process, name);
  const read = (): NodeJS.WriteStream =>
    own?.get ? (own.get.call(process) as NodeJS.WriteStream) : (own?.value as NodeJS.WriteStream);
  const stream = read();
  if (stream === undefined || diverted.has(stream)) return;
  diverted.add(stream);
  const original = stream.write;
  stream.write = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    const sink = current();
    if (!sink) return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    sink.write(typeof chunk === "string" ? chunk : (chunk as Uint8Array));
    const done = rest.find((a) => typeof a === "function") as (() => void) | undefined;
    if (done) queueMicrotask(done);
    return true;
  } as typeof stream.write;
}
