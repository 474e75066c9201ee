/** Retry intervals in seconds after each failed attempt (docs/api.md §3.7); attempts = intervals + 1. */
export const RETRY_SCHEDULES = {
  // video file: 1 + 19 retries = 20 pushes
  video: [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 120, 120, 120, 120, 120, 120],
  // video stream: 12 retries after 5, 10, …, 60 s
  videostream: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60],
  // audio stream: "at most 20 pushes", intervals unstated → the video-file intervals
  audiostream: [5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 120, 120, 120, 120, 120, 120],
} as const satisfies Record<string, readonly number[]>;

export type ScheduleName = keyof typeof RETRY_SCHEDULES;

/** Delay before the next attempt after `failedAttempts` failures, or null when the schedule is exhausted. */
export function nextRetryDelayMs(schedule: ScheduleName, failedAttempts: number, timeScale = 1): number | null {
  const intervals = RETRY_SCHEDULES[schedule];
  if (failedAttempts < 1 || failedAttempts > intervals.length) return null;
  return Math.round(intervals[failedAttempts - 1] * 1000 * timeScale);
}

export const maxAttempts = (schedule: ScheduleName) => RETRY_SCHEDULES[schedule].length + 1;
