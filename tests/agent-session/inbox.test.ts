import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { join } from "node:path";
import {
  ANY_SESSION,
  countNotices,
  postNotice,
  takeNotices,
} from "../../src/agent-session/inbox.ts";
import { tempDir } from "../helpers/tmp.ts";

test("notices are delivered to their session, oldest first, once", () => {
  const root = tempDir();
  postNotice(root, "s1", { kind: "k", text: "one" });
  postNotice(root, "s2", { kind: "k", text: "other session" });
  postNotice(root, ANY_SESSION, { kind: "k", text: "anyone" });
  postNotice(root, "s1", { kind: "k", text: "two" });
  expect(countNotices(root, "s1")).toBe(2);
  expect(takeNotices(root, "s1").map((n) => n.text)).toEqual(["one", "anyone", "two"]);
  expect(takeNotices(root, "s1")).toEqual([]);
  expect(takeNotices(root, "s2").map((n) => n.text)).toEqual(["other session"]);
});

test("concurrent takers in separate processes never deliver a notice twice or lose one", async () => {
  const root = tempDir();
  for (let i = 0; i < 200; i++) postNotice(root, "s", { kind: "k", text: `n${i}` });
  const script = `import { takeNotices } from ${JSON.stringify(join(import.meta.dir, "../../src/agent-session/inbox.ts"))};
process.stdout.write(JSON.stringify(takeNotices(process.argv[1], "s").map((n) => n.text)));`;
  const takers = Array.from(
    { length: 4 },
    () =>
      new Promise<string[]>((resolve) => {
        const child = spawn(process.execPath, ["-e", script, root]);
        let out = "";
        child.stdout.on("data", (c) => {
          out += c;
        });
        child.on("close", () => resolve(JSON.parse(out)));
      }),
  );
  const all = (await Promise.all(takers)).flat();
  expect(all.length).toBe(200);
  expect(new Set(all).size).toBe(200);
});
