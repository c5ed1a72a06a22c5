/** The line reader in front of the MCP SDK's stdio transport. */
import { expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { limitLines, type Oversize, topLevelId } from "../../src/mcp/line-limit.ts";

test("topLevelId finds the request's own id, not one nested in its params", () => {
  expect(topLevelId('{"jsonrpc":"2.0","id":12,"method":"x"')).toBe(12);
  expect(topLevelId('{"jsonrpc":"2.0","id":"a\\"b","method":"x"')).toBe('a"b');
  expect(topLevelId('{"params":{"id":5,"x":"xxxx')).toBeNull();
  expect(topLevelId('{"params":{"id":5},"id" : 9')).toBe(9);
  expect(topLevelId('{"method":"n","params":{"text":"\\"id\\":3')).toBeNull();
});

test("lines pass whole; a line over the limit is dropped and reported, the next one passes", async () => {
  const input = new PassThrough();
  const seen: Oversize[] = [];
  const out = limitLines(input, 40, (o) => seen.push(o));
  const lines: string[] = [];
  out.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
  input.write('{"id":1}\n{"id":2,"x":"');
  input.write("y".repeat(100));
  input.write('"}\n{"id"');
  input.end(":3}\n");
  await new Promise((r) => out.on("end", r));
  expect(lines).toEqual(['{"id":1}\n', '{"id":3}\n']);
  expect(seen).toEqual([{ bytes: 116, id: 2 }]);
});

test("a line over the limit that never ends (stdin closes) is reported too", async () => {
  const input = new PassThrough();
  const seen: Oversize[] = [];
  const out = limitLines(input, 10, (o) => seen.push(o));
  out.resume();
  input.end('{"id":4,"x":"yyyyyyyyyyyy');
  await new Promise((r) => out.on("end", r));
  expect(seen).toEqual([{ bytes: 25, id: 4 }]);
});
