import type { Later } from "../../src/lib/time";

/**
 * A clock that moves only when told to, for work scheduled for after a response (`Later`):
 * tasks wait in a queue and run, one at a time and fully awaited, when the clock passes their
 * time. Lets a test (or the bench's cost simulation) play minutes of traffic in a moment while
 * the code under test talks to the real local D1 and KV.
 */
export class VirtualClock {
  private tasks: { due: number; seq: number; task: () => Promise<void> }[] = [];
  private seq = 0;

  constructor(public now: number) {}

  readonly read = (): number => this.now;

  readonly later: Later = (delayMs, task) => {
    this.tasks.push({ due: this.now + Math.max(delayMs, 0), seq: this.seq++, task });
  };

  /** Runs every task due by `time` in order, the clock at each one's time; then stands at `time`. */
  async advanceTo(time: number): Promise<void> {
    for (;;) {
      this.tasks.sort((a, b) => a.due - b.due || a.seq - b.seq);
      const next = this.tasks[0];
      if (!next || next.due > time) break;
      this.tasks.shift();
      this.now = Math.max(this.now, next.due);
      await next.task();
    }
    this.now = Math.max(this.now, time);
  }

  get pending(): number {
    return this.tasks.length;
  }
}
