/** Throwaway git projects and hook scripts for end-to-end tests with the real CLI. */
import { execFileSync } from "node:child_process";
import { chmod, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempProject {
  /** Absolute, symlink-free path (the CLI reports real paths). */
  dir: string;
  /** Absolute path of a file inside the project. */
  path(name: string): string;
  /** Writes a file and returns its absolute path. */
  write(name: string, content: string): Promise<string>;
  /** Writes an executable bash hook (the body runs after `set -u`) and returns its path. */
  hook(name: string, body: string): Promise<string>;
  /** `git add -A && git commit`. */
  commit(message: string): void;
  remove(): Promise<void>;
}

/** Makes a temp dir with `git init` and a local identity, so commits work anywhere. */
export async function makeTempProject(prefix = "cpilot-e2e-"): Promise<TempProject> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  git("init", "-q", "-b", "main");
  git("config", "user.email", "e2e@example.invalid");
  git("config", "user.name", "e2e");
  const project: TempProject = {
    dir,
    path: (name) => join(dir, name),
    write: async (name, content) => {
      await writeFile(join(dir, name), content);
      return join(dir, name);
    },
    hook: async (name, body) => {
      const file = await project.write(name, `#!/usr/bin/env bash\nset -u\n${body}\n`);
      await chmod(file, 0o755);
      return file;
    },
    commit: (message) => {
      git("add", "-A");
      git("commit", "-q", "-m", message);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  return project;
}
