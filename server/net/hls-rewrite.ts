/** Largest playlist the egress gateway rewrites; a bigger "playlist" is refused (real ones are a few KB). */
export const MAX_PLAYLIST_BYTES = 4 * 1024 * 1024;

/**
 * Whether a response is an HLS playlist (RFC 8216 §4.3.1.1: it starts with #EXTM3U), judged from its first bytes
 * and its type, as ffmpeg would read it whatever its name: any such body is rewritten before ffmpeg sees it.
 */
export function looksLikePlaylist(head: Buffer, contentType: string | undefined): boolean {
  if (/mpegurl/i.test(contentType ?? "")) return true;
  const text = head.subarray(0, 64).toString("latin1").replace(/^\xef\xbb\xbf/, "").trimStart();
  return text.slice(0, 7).toUpperCase() === "#EXTM3U";
}

/** What becomes of one URI named in a playlist: the local URL ffmpeg is given instead (no quote, comma or space in it). */
export type UriMapper = (uri: string, base: URL) => string;

const isSpace = (c: string) => c === " " || c === "\t" || c === "\v" || c === "\f";

/**
 * A tag's attribute list with every URI value replaced, tokenised exactly as ffmpeg's ff_parse_key_value reads it
 * (separators are spaces and commas, the key runs to the next "=", a quoted value may hold \-escapes), so no
 * quoted text of another attribute can hide a URI from this rewrite or smuggle one past it.
 */
function rewriteAttributes(attrs: string, base: URL, map: UriMapper): string {
  let out = "";
  let i = 0;
  for (;;) {
    while (i < attrs.length && (isSpace(attrs[i]) || attrs[i] === ",")) out += attrs[i++];
    if (i >= attrs.length) return out;
    const eq = attrs.indexOf("=", i);
    if (eq < 0) return out + attrs.slice(i);
    const key = attrs.slice(i, eq + 1);
    i = eq + 1;
    let value = "";
    const start = i;
    if (attrs[i] === '"') {
      i++;
      while (i < attrs.length && attrs[i] !== '"') {
        if (attrs[i] === "\\") {
          if (i + 1 >= attrs.length) break;
          value += attrs[i + 1];
          i += 2;
        } else value += attrs[i++];
      }
      if (attrs[i] === '"') i++;
    } else {
      while (i < attrs.length && !isSpace(attrs[i]) && attrs[i] !== ",") value += attrs[i++];
    }
    out += key.toUpperCase() === "URI=" ? `${key}"${map(value, base)}"` : key + attrs.slice(start, i);
  }
}

/**
 * The playlist with every URI in it replaced by `map`'s answer (resolved against `base`, the playlist's own final
 * URL): each line that is not a tag, and each URI attribute of any tag (keys, maps, renditions, parts). Lines are
 * split as ffmpeg splits them (LF, CR, CR LF or NUL), so no second line can hide inside one.
 */
export function rewritePlaylist(text: string, base: URL, map: UriMapper): string {
  return text
    .replace(/^\ufeff/, "")
    .split(/\r\n|[\r\n\0]/)
    .map((line) => {
      const trimmed = line.trim();
      if (!trimmed) return "";
      if (!line.startsWith("#")) return map(trimmed, base);
      const colon = line.indexOf(":");
      if (colon < 0 || !/URI/i.test(line)) return line;
      return line.slice(0, colon + 1) + rewriteAttributes(line.slice(colon + 1), base, map);
    })
    .join("\n");
}
