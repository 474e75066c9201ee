import { execFileSync } from "node:child_process";
import fs from "node:fs";

/**
 * The Debian packages the product's audio types need when no npm package can do the job in Node:
 * offline speech to text (pocketsphinx; no Whisper/Vosk model installs here) and audio fingerprints
 * (`fpcalc`; the one wasm Chromaprint on npm needs a browser AudioContext and crashed in Node). ffmpeg
 * itself ships in npm (`@ffmpeg-installer/ffmpeg`, 4.1); Debian's 5.1 is preferred when present.
 */
export const PRODUCT_PACKAGES: Record<string, { file: string; for: string }> = {
  ffmpeg: { file: "/usr/bin/ffmpeg", for: "newer decoders and ffprobe (the npm ffmpeg 4.1 is used without it)" },
  pocketsphinx: { file: "/usr/bin/pocketsphinx_continuous", for: "offline English speech to text (spoken keyword types)" },
  "pocketsphinx-en-us": { file: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", for: "the English model of pocketsphinx" },
  "libchromaprint-tools": { file: "/usr/bin/fpcalc", for: "audio fingerprints (known songs / reference audio)" },
  // the sample stream's Chinese ad line (server/demo/sample-source.ts); without it the sample shows a Latin-only ad
  "fonts-noto-cjk": { file: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", for: "the sample stream's Chinese ad text (a Latin-only ad is shown without it)" },
};

/** Packages that serve audio types (the others, e.g. fonts, never make an audio type unsupported). */
export const AUDIO_PACKAGES = ["pocketsphinx", "pocketsphinx-en-us", "libchromaprint-tools"] as const;

export function missingPackages(): string[] {
  return Object.entries(PRODUCT_PACKAGES)
    .filter(([, p]) => !fs.existsSync(p.file))
    .map(([name]) => name);
}

/**
 * At start: install what is missing when this process may (root, apt-get present, AUTO_INSTALL_PACKAGES not
 * `0`), printing what it installs; otherwise print the one command that would. The audio types these engines
 * serve stay listed as unsupported (GET /capabilities/v4) until they are installed.
 */
export function ensureProductPackages(o: { auto: boolean; log: (m: string) => void }): void {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const why = missing.map((m) => `${m} (${PRODUCT_PACKAGES[m].for})`).join(", ");
  const root = process.getuid?.() === 0;
  if (!o.auto || !root || !fs.existsSync("/usr/bin/apt-get")) {
    o.log(`> missing Debian packages: ${why}. Install them with: sudo apt-get install -y ${missing.join(" ")} (or run npm start as root to install them) — until then the audio types they serve are listed as unsupported (GET /capabilities/v4)${missing.includes("fonts-noto-cjk") ? " and the sample stream shows a Latin-only ad" : ""}`);
    return;
  }
  o.log(`> installing Debian packages: ${why} (apt-get; AUTO_INSTALL_PACKAGES=0 turns this off)`);
  try {
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    o.log(`> installed: ${missing.join(" ")}`);
  } catch (err) {
    o.log(`> could not install ${missing.join(" ")} (${(err as Error).message.split("\n")[0]}); the audio types they serve stay unsupported`);
  }
}
