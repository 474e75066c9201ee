import { CSRF_COOKIE, CSRF_HEADER } from "@/lib/roles";

export interface UploadOk {
  requestId: string;
  btId: string;
}

/** POST /api/files as multipart with upload progress (fetch has none); rejects with the server's error message. */
export function uploadWithProgress(file: File, input: Record<string, unknown>, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<UploadOk> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append("input", JSON.stringify(input));
    form.append("file", file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/files");
    xhr.setRequestHeader("accept", "application/json");
    const m = document.cookie.match(new RegExp(`(?:^|;\\s*)${CSRF_COOKIE}=([^;]+)`));
    if (m) xhr.setRequestHeader(CSRF_HEADER, decodeURIComponent(m[1]));
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: { error?: string; requestId?: string; btId?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: the status says enough
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.btId && body.requestId) resolve({ requestId: body.requestId, btId: body.btId });
      else reject(new Error(body.error ?? `HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error("the connection dropped during the upload: retry"));
    xhr.onabort = () => reject(new Error("cancelled"));
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(form);
  });
}
