import crypto from "node:crypto";

/** 32 lowercase hex, the vendor's requestId form. */
export const newRequestId = () => crypto.randomBytes(16).toString("hex");
