// Puts the traineddata shipped in @tesseract.js-data into one langPath folder plus a ready cache, atomically.
import { copyFile, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

const require = createRequire(import.meta.url);
export const OCR_LANGS = ["eng", "chi_sim"] as const;

export interface TessdataPaths {
  langPath: string;
  cachePath: string;
}

export function tessdataPaths(dataDir: string): TessdataPaths {
  return { langPath: path.join(dataDir, "tessdata"), cachePath: path.join(dataDir, "tesseract-cache") };
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return -1;
  }
}

/**
 * Copy `<lang>.traineddata.gz` (4.0.0_best_int) into langPath and write the gunzipped cache tesseract.js
 * reads first. Temp file + rename, so a concurrent or interrupted run never leaves a truncated model behind.
 */
export async function prepareTessdata(dataDir: string): Promise<TessdataPaths> {
  const paths = tessdataPaths(dataDir);
  await mkdir(paths.langPath, { recursive: true });
  await mkdir(paths.cachePath, { recursive: true });
  for (const lang of OCR_LANGS) {
    const src = path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), "4.0.0_best_int", `${lang}.traineddata.gz`);
    const gz = path.join(paths.langPath, `${lang}.traineddata.gz`);
    const srcSize = await sizeOf(src);
    const tmp = `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    if ((await sizeOf(gz)) !== srcSize) {
      await copyFile(src, gz + tmp);
      await rename(gz + tmp, gz);
    }
    const cached = path.join(paths.cachePath, `${lang}.traineddata`);
    const marker = `${cached}.src-size`;
    const markerOk = await readFile(marker, "utf8").then((s) => Number(s) === srcSize, () => false);
    if (!markerOk || (await sizeOf(cached)) <= 0) {
      await writeFile(cached + tmp, await promisify(gunzip)(await readFile(src)));
      await rename(cached + tmp, cached);
      await writeFile(marker, String(srcSize));
    }
  }
  return paths;
}
