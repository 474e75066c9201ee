/** Stream-pull retry policies of docs/api.md §4 as data: waits (s) before each retry; retries = waits.length. */
const rising = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60];
const every30 = Array.from({ length: 10 }, () => 30);

export const PULL_RETRIES = {
  videostream: { NORMAL: rising, ZEGO: rising, TRTC: rising, VOLC: rising, ALI: rising, AGORA: [] },
  audiostream: { NORMAL: rising, AGORA: [0, 0], ZEGO: every30, TRTC: every30, VOLC: every30, GIN: every30, ALI: every30, YUNXIN: every30 },
} as const satisfies Record<string, Record<string, readonly number[]>>;

export type StreamProduct = keyof typeof PULL_RETRIES;

/** Wait before retry number `retry` (1-based), or null once the policy is exhausted. */
export function pullRetryDelayMs(product: StreamProduct, streamType: string, retry: number, timeScale = 1): number | null {
  const waits: readonly number[] = (PULL_RETRIES[product] as Record<string, readonly number[]>)[streamType] ?? PULL_RETRIES[product].NORMAL;
  if (retry < 1 || retry > waits.length) return null;
  return Math.round(waits[retry - 1] * 1000 * timeScale);
}
