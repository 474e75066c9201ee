import { serializeCookie } from "./cookies";

/** The known-device cookie: set at every sign-in, kept across sign-outs; it lets its account skip the account-wide sign-in delay. */
export const DEVICE_COOKIE = "mp_device";
const DEVICE_MAX_AGE_SEC = 180 * 24 * 3600;

export const deviceCookie = (token: string, secure: boolean): string => serializeCookie(DEVICE_COOKIE, token, { maxAgeSec: DEVICE_MAX_AGE_SEC, httpOnly: true, secure });
