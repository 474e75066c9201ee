// Bounded concurrency for segments: a few run, a few wait, the rest are refused at once.
import { PoolClosedError, QueueFullError } from "../errors";

/** A QueueFullError (same handling as the frame pool's) with an audio message. */
export class AudioQueueFullError extends QueueFullError {
  constructor(queueLimit: number) {
    super(queueLimit);
    this.message = `audio detect queue full (${queueLimit} segments pending)`;
  }
}

export class AudioDetectorClosedError extends PoolClosedError {
  constructor() {
    super();
    this.message = "audio detector closed";
  }
}

interface Waiting {
  start: () => void;
  reject: (err: Error) => void;
}

export class Limiter {
  private running = 0;
  private readonly waiting: Waiting[] = [];
  private closed = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly concurrency: number, private readonly limit: number) {}

  /** queued + running */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new AudioDetectorClosedError());
    if (this.pending >= this.limit) return Promise.reject(new AudioQueueFullError(this.limit));
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        job().then(resolve, reject).finally(() => {
          this.running--;
          this.next();
        });
      };
      if (this.running < this.concurrency) start();
      else this.waiting.push({ start, reject });
    });
  }

  private next(): void {
    const w = this.closed ? undefined : this.waiting.shift();
    if (w) w.start();
    if (this.running === 0) for (const done of this.idle) done();
  }

  /** Refuses new jobs, rejects the queued ones, resolves when the running ones are done. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new AudioDetectorClosedError());
    if (this.running === 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.idle.delete(done);
        resolve();
      };
      this.idle.add(done);
    });
  }
}
