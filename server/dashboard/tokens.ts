import crypto from "node:crypto";

/** Receiver URLs carry a random token; only its digest is stored, so lookups leak nothing by timing. */
export const hashToken = (t: string) => crypto.createHash("sha256").update(t).digest("hex");
