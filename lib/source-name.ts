// What a person calls a stream or file that has no title: never a bare hex id in a queue.

/** "host/path" of a media URL (no scheme, credentials or query), cut to `max` characters; null when there is none. */
export function urlLabel(url: string | null | undefined, max = 60): string | null {
  if (!url) return null;
  let label = url;
  try {
    const u = new URL(url);
    label = `${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    // not a URL: shown as given
  }
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

/**
 * A source's name: its title; else, for one submitted through the public API, "<accessKey name> · <stream name or
 * URL host/path>"; else the URL's host/path; null when nothing is known (the caller shows its id).
 */
export function sourceName(s: { title: string | null; url: string | null; origin?: "dashboard" | "api"; keyName?: string | null; streamName?: string | null }): string | null {
  if (s.title) return s.title;
  const where = s.streamName || urlLabel(s.url);
  if (s.origin === "api") return `${s.keyName ?? "API"} · ${where ?? "no URL"}`;
  return where;
}
