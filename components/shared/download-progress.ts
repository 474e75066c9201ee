// A download fetched by the page (to show "Preparing zip…" while the server builds it), saved under the server's name.

/** The filename of a Content-Disposition header ("attachment; filename=\"x.zip\""), or null. */
export function filenameOf(disposition: string | null): string | null {
  const m = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  if (!m) return null;
  const name = decodeURIComponent(m[1]).replace(/[/\\]/g, "_");
  return name || null;
}

/** "Preparing zip…" until bytes arrive, then "Preparing zip… 1.2 MB". */
export function preparingText(bytes: number): string {
  if (bytes <= 0) return "Preparing zip…";
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `Preparing zip… ${size}`;
}
