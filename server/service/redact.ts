/**
 * Log lines never carry secrets: URLs (stream keys, callback tokens and credentials live in paths, queries and
 * userinfo) are cut to scheme://host:port, and accessKey-like JSON fields and Authorization values (Bearer tokens) are masked.
 */
const URL_PATTERN = /\b([a-z][a-z0-9+.-]{1,15}:\/\/)(?:[^\s/?#@'"]*@)?([^\s/?#'"]+)([^\s'"]*)/gi;

export function redactSecrets(text: string): string {
  return text
    .replace(URL_PATTERN, (_m, scheme: string, host: string, rest: string) => {
      const tail = /[:,.;)\]]*$/.exec(rest)?.[0] ?? "";
      const path = rest.slice(0, rest.length - tail.length);
      return `${scheme}${host}${path && path !== "/" ? "/…" : path}${tail}`;
    })
    .replace(/("?(?:accessKey|password|secret|token)"?\s*[:=]\s*"?)[^"\s,}]+/gi, "$1***")
    // an Authorization value (a WHEP source's bearer): the scheme stays, the credential goes
    .replace(/\b(Bearer\s+)(?!\*\*\*)[^\s"',}]+/g, "$1***")
    .replace(/("?authorization"?\s*[:=]\s*"?)(?!Bearer\s)[^"\n,}]+/gi, "$1***");
}
