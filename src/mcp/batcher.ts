import type { WriteDone, WriteRefused } from "./perform-write.ts";

export interface CallAnswer {
  readonly text: string;
  readonly structured?: Record<string, unknown>;
}

export type CallEnd = CallAnswer | WriteRefused;

interface OpenBatch {
  readonly done: WriteDone[];
  readonly waiting: ((answer: CallAnswer) => void)[];
  readonly firstAt: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export interface BatcherOptions {
  readonly windowMs: number;
  /** A batch closes this long after its first call even if calls keep coming. */
  readonly maxWaitMs: number;
  /** One answer per write, in order. */
  readonly finish: (writes: readonly WriteDone[]) => Promise<CallAnswer[]>;
}

/**
 * Edit calls within a quiet window are one batch, so per-batch callbacks run once. One
 * serial chain: writes in arrival order, a batch's callbacks after its writes and before
 * the next batch's, and reads see the writes sent before them.
 */
export class Batcher {
  private chain: Promise<unknown> = Promise.resolve();
  private open: OpenBatch | null = null;

  constructor(private readonly options: BatcherOptions) {}

  serial<T>(step: () => Promise<T> | T): Promise<T> {
    const next = this.chain.then(step);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** A refused write answers at once, a done one when its batch's blocking callbacks have finished. */
  submit(perform: () => Promise<WriteDone | WriteRefused>): Promise<CallEnd> {
    const batch = this.arm();
    return this.serial(async () => {
      const result = await perform();
      if ("refused" in result) return result;
      batch.done.push(result);
      // Not awaited here: the batch's callbacks run on this chain after this step.
      return { answer: new Promise<CallAnswer>((resolve) => batch.waiting.push(resolve)) };
    }).then(async (step) => ("refused" in step ? step : await step.answer));
  }

  async idle(): Promise<void> {
    for (;;) {
      const current = this.chain;
      await current;
      if (current === this.chain && this.open === null) return;
      if (this.open !== null) await new Promise((r) => setTimeout(r, this.options.windowMs));
    }
  }

  /** The open batch (a new one if none), its quiet timer restarted. */
  private arm(): OpenBatch {
    const batch = this.open ?? { done: [], waiting: [], firstAt: Date.now(), timer: null };
    this.open = batch;
    if (batch.timer !== null) clearTimeout(batch.timer);
    const left = batch.firstAt + this.options.maxWaitMs - Date.now();
    batch.timer = setTimeout(
      () => this.close(batch),
      Math.max(0, Math.min(this.options.windowMs, left)),
    );
    return batch;
  }

  private close(batch: OpenBatch): void {
    if (this.open === batch) this.open = null;
    batch.timer = null;
    void this.serial(async () => {
      if (batch.done.length === 0) return;
      let answers: CallAnswer[];
      try {
        answers = await this.options.finish(batch.done);
      } catch (err) {
        const message = `callbacks could not run: ${err instanceof Error ? err.message : String(err)}`;
        answers = batch.done.map((d) => ({ text: `${d.summary}\n${message}` }));
      }
      for (const [i, answer] of batch.waiting.entries()) {
        answer(answers[i] ?? { text: batch.done[i]?.summary ?? "" });
      }
    });
  }
}
