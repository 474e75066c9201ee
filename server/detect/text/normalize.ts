// OCR text clean-up before matching: Tesseract puts spaces between CJK characters ("加 微 信" → "加微信").

// Han ideographs, CJK symbols/punctuation, full-width forms that survive NFKC (e.g. 。、「」).
const CJK = "\\p{Script=Han}\\u3000-\\u303F\\uFF01-\\uFF65";
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])[ \\t\\u00A0\\u3000]+(?=[${CJK}])`, "gu");

/**
 * NFKC (full-width Latin/digits → ASCII), collapse runs of blanks, drop blanks between two CJK
 * characters, trim every line and drop empty lines. Output lines are joined with "\n".
 */
export function normalizeText(raw: string): string {
  return raw
    .normalize("NFKC")
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t\u00A0\u3000]+/g, " ").replace(SPACE_BETWEEN_CJK, "").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/** Lower-case each UTF-16 unit on its own so the result has exactly the same length (offsets stay valid). */
export function foldForMatch(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const lower = c.toLowerCase();
    out += lower.length === 1 ? lower : c;
  }
  return out;
}
