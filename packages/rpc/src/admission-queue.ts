/** Gives back the slot a request held; calling it again does nothing. */
export type Release = () => void;

/** Why a request was not started: it could not start before its deadline, or the queue was full. */
export class AdmissionRefused extends Error {
  constructor(readonly reason: 'deadline' | 'queue_full') {
    super(reason === 'deadline' ? 'could not start before its deadline' : 'the queue is full');
  }
}

interface Waiter {
  resolve(release: Release): void;
  reject(error: AdmissionRefused): void;
  timer: NodeJS.Timeout;
  done: boolean;
}

/**
 * Admission by waiting time: at most `limit` requests run at once; the others wait in order of
 * arrival, each until the moment it must have started (its deadline), and only a request that
 * could not start by then is refused. A burst of fast requests is queued, not shed; a slow or
 * stuck dependency still turns into prompt refusals rather than an unbounded backlog. `maxWaiting`
 * bounds the memory a flood can take.
 */
export class AdmissionQueue {
  private active = 0;
  private pending = 0;
  private readonly queue: Waiter[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  /** Requests running now. */
  get running(): number {
    return this.active;
  }

  /** Requests waiting to start. */
  get waiting(): number {
    return this.pending;
  }

  /**
   * A slot, at once (no promise) when one is free; otherwise once one frees, if that happens within
   * `waitMs`. Rejects with `AdmissionRefused` when it does not, or when `maxWaiting` already wait.
   */
  enter(waitMs: number): Release | Promise<Release> {
    if (this.active < this.limit && this.pending === 0) return this.take();
    if (this.pending >= this.maxWaiting) return Promise.reject(new AdmissionRefused('queue_full'));
    if (waitMs <= 0) return Promise.reject(new AdmissionRefused('deadline'));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        done: false,
        timer: setTimeout(() => {
          waiter.done = true;
          this.pending--;
          reject(new AdmissionRefused('deadline'));
          this.compact();
        }, waitMs),
      };
      this.queue.push(waiter);
      this.pending++;
    });
  }

  private take(): Release {
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.next();
    };
  }

  /** Starts the oldest waiter still waiting, if a slot is free. */
  private next(): void {
    while (this.active < this.limit && this.head < this.queue.length) {
      const waiter = this.queue[this.head++]!;
      if (waiter.done) continue;
      waiter.done = true;
      this.pending--;
      clearTimeout(waiter.timer);
      waiter.resolve(this.take());
    }
    this.compact();
  }

  /** Drops the waiters already started or refused from the front, now and then. */
  private compact(): void {
    while (this.head < this.queue.length && this.queue[this.head]!.done) this.head++;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}
