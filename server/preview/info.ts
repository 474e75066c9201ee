// Shapes of GET /api/preview/<requestId> (types only: the player imports them).

export interface PreviewClip {
  /** the first REJECT frame's index; GET …/clips/<n>.mp4 */
  n: number;
  url: string;
  frames: Array<{ index: number; at: string }>;
  startAt: string;
  endAt: string;
  durationSec: number;
  partial: boolean;
  /** a file's clip: seconds from the file's start (then startAt/endAt carry no clock time) */
  offsets?: { fromSec: number; toSec: number; copied: boolean };
}

export interface PreviewInfo {
  requestId: string;
  /** the preview holds at least one segment */
  available: boolean;
  /** the stream still runs (no EXT-X-ENDLIST) */
  live: boolean;
  /** signed link to the HLS playlist (null when not available) */
  playlistUrl: string | null;
  /** wall-clock span the ring holds */
  window: { startAt: string; endAt: string } | null;
  segments: number;
  retentionMin: number;
  clipBeforeSec: number;
  clipAfterSec: number;
  /** the server's UTC offset in minutes: frames' imgTime is server-local time without a zone */
  utcOffsetMin: number;
  clips: PreviewClip[];
  /** why there is no preview (not available) */
  reason?: string;
}
