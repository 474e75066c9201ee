// Query keys in one place so socket handlers and hooks touch the same cache entries.
export const queryKeys = {
  files: ["files"] as const,
  fileResult: (btId: string) => ["file-result", btId] as const,
  capabilities: ["capabilities"] as const,
  config: ["config"] as const,
  streams: ["streams"] as const,
  stream: (requestId: string) => ["stream", requestId] as const,
  demo: ["demo"] as const,
};
