type Step = { t: number; seq: number; run: () => Promise<unknown> };

/** Actions scheduled at timestamps, played in time order (ties in scheduling order). */
export class Timeline {
  private steps: Step[] = [];
  private seq = 0;

  at(t: number, run: () => Promise<unknown>): void {
    this.steps.push({ t: Math.floor(t), seq: this.seq++, run });
  }

  async play(): Promise<void> {
    const steps = this.steps.sort((a, b) => a.t - b.t || a.seq - b.seq);
    this.steps = [];
    for (const step of steps) await step.run();
  }
}
