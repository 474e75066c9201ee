// Errors the pool rejects with; the worker's errors are rebuilt by name on the main thread.

export class QueueFullError extends Error {
  override name = "QueueFullError";
  constructor(readonly queueLimit: number) {
    super(`detect queue full (${queueLimit} frames pending)`);
  }
}

export class PoolClosedError extends Error {
  override name = "PoolClosedError";
  constructor() {
    super("detect pool closed");
  }
}

export class WorkerCrashedError extends Error {
  override name = "WorkerCrashedError";
}

export class JobTimeoutError extends Error {
  override name = "JobTimeoutError";
}

/** The bytes are not a decodable image. */
export class InvalidImageError extends Error {
  override name = "InvalidImageError";
}

/** A detector failed inside the worker. */
export class DetectorError extends Error {
  override name = "DetectorError";
}

export function errorFromWorker(name: string, message: string): Error {
  return name === "InvalidImageError" ? new InvalidImageError(message) : new DetectorError(`${name}: ${message}`);
}
