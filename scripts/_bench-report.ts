// The benchmark's markdown: the machine, a summary of cpilot against the faster of native
// lefthook and prek per case, then every tool and floor per repo with medians and p95.
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg, release } from "node:os";
import type { Sample } from "./_bench-measure.ts";

export interface Row {
  readonly repo: string;
  readonly caseName: string;
  /** "cpilot", "lefthook", "prek", "lint-staged", or a floor's name. */
  readonly tool: string;
  readonly floor: boolean;
  readonly samples: readonly Sample[];
}

const PEERS = ["lefthook", "prek"];

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  if (q === 0.5) {
    const mid = Math.floor(s.length / 2);
    return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  }
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
}

const med = (r: Row, k: keyof Sample) =>
  quantile(
    r.samples.map((s) => s[k]),
    0.5,
  );
const ms = (x: number) => (Number.isNaN(x) ? "" : `${x.toFixed(1)} ms`);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const ratio = (a: number, b: number | undefined) =>
  b === undefined || b === 0 ? "" : `${(a / b).toFixed(2)}×`;

/** The faster (by median wall) of native lefthook and prek in one case. */
function bestPeer(group: readonly Row[]): Row | undefined {
  return group
    .filter((r) => PEERS.includes(r.tool))
    .sort((a, b) => med(a, "wallMs") - med(b, "wallMs"))[0];
}

export function cpuModel(): string {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    return line?.split(":")[1]?.trim() ?? "unknown CPU";
  } catch {
    return "unknown CPU";
  }
}

export const loadLine = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

export function machineLine(): string {
  return `${availableParallelism()} CPUs (nproc), ${cpuModel()}, ${process.platform} ${release()}`;
}

export interface ReportHead {
  readonly date: Date;
  readonly runs: number;
  readonly warmup: number;
  readonly loadStart: string;
  readonly loadEnd: string;
  readonly costLine: string;
  readonly peerLines: readonly string[];
  readonly elapsedS: number;
}

export function renderReport(head: ReportHead, rows: readonly Row[]): string {
  const out: string[] = [
    `# cpilot benchmark, ${head.date.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    "",
    `- machine: ${machineLine()}`,
    `- load average (1, 5, 15 min): ${head.loadStart} at the start, ${head.loadEnd} at the end`,
    `- ${head.costLine}`,
    `- ${head.runs} measured rounds after ${head.warmup} warm-up round(s); in each round every tool and floor of a case runs once, in an order that rotates, so load from elsewhere hits all alike; took ${head.elapsedS.toFixed(0)} s`,
    "- wall and CPU (user + sys of the command and the processes it waited for) in ms, peak RSS in MB; medians, and p95 of wall in the details",
    ...head.peerLines.map((l) => `- ${l}`),
    "",
    "## cpilot against the faster of native lefthook and prek",
    "",
    "| repo | case | cpilot | lefthook | prek | lint-staged | cpilot ÷ best peer, wall | CPU | peak RSS cpilot / best peer |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.repo}\u0000${r.caseName}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    const cell = (tool: string) => {
      const r = group.find((x) => x.tool === tool);
      return r ? ms(med(r, "wallMs")) : "";
    };
    const mine = group.find((r) => r.tool === "cpilot");
    const best = bestPeer(group);
    out.push(
      `| ${first.repo} | ${first.caseName} | ${cell("cpilot")} | ${cell("lefthook")} | ${cell("prek")} | ${cell("lint-staged")} | ${mine && best ? `${ratio(med(mine, "wallMs"), med(best, "wallMs"))} (${best.tool})` : ""} | ${mine && best ? ratio(med(mine, "cpuMs"), med(best, "cpuMs")) : ""} | ${mine && best ? `${mb(med(mine, "rssKb"))} / ${mb(med(best, "rssKb"))}` : ""} |`,
    );
  }
  const hookLines = [...groups.values()].flatMap((group) => {
    const mine = group.find((r) => r.tool === "cpilot");
    const empty = group.find((r) => r.tool === "empty Bun program");
    const bash = group.find((r) => r.tool === "bash -c true");
    if (!mine || !empty || !bash || !mine.caseName.startsWith("Claude hook")) return [];
    const over = med(mine, "wallMs") - med(empty, "wallMs") - med(bash, "wallMs");
    const spike = quantile(
      mine.samples.map((s) => s.wallMs),
      0.95,
    );
    return [`| ${mine.repo} | ${ms(over)} | ${ratio(spike, med(mine, "wallMs"))} |`];
  });
  if (hookLines.length > 0) {
    out.push(
      "",
      "## The hook call against its floor",
      "",
      "The floor: an empty compiled Bun program plus spawning `bash -c true`, medians of the same rounds.",
      "",
      "| repo | cpilot's hook call over the floor, wall | p95 ÷ median |",
      "|---|---|---|",
      ...hookLines,
    );
  }
  let repo = "";
  for (const group of groups.values()) {
    const first = group[0];
    if (!first) continue;
    if (first.repo !== repo) {
      repo = first.repo;
      out.push("", `### ${repo}`, "");
      out.push(
        "| case | tool | wall | wall p95 | CPU | peak RSS | ÷ best peer, wall | CPU |",
        "|---|---|---|---|---|---|---|---|",
      );
    }
    const best = bestPeer(group);
    for (const r of group) {
      const name = r.floor ? `floor: ${r.tool}` : r.tool;
      const rel =
        best && !r.floor
          ? `${ratio(med(r, "wallMs"), med(best, "wallMs"))} | ${ratio(med(r, "cpuMs"), med(best, "cpuMs"))}`
          : " | ";
      out.push(
        `| ${r.caseName} | ${name} | ${ms(med(r, "wallMs"))} | ${ms(
          quantile(
            r.samples.map((s) => s.wallMs),
            0.95,
          ),
        )} | ${ms(med(r, "cpuMs"))} | ${mb(med(r, "rssKb"))} | ${rel} |`,
      );
    }
  }
  return `${out.join("\n")}\n`;
}
