import CRC32 from "crc-32";
import { randomBase62, toBase62 } from "../lib/crypto";

/**
 * API keys: `qz_live_` + 32 random base62 characters (≈190 bits) + a 6-character base62 CRC32
 * of everything before it. The checksum lets a malformed or mistyped key be refused before any
 * lookup, and lets secret scanners recognise leaked keys with few false positives.
 */
export const API_KEY_PREFIX = "qz_live_";
const API_KEY_RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32, so every CRC32 fits.
const API_KEY_PATTERN = /^qz_live_[0-9A-Za-z]{38}$/;

/** OAuth tokens and client secrets are opaque random strings with a prefix that names their kind. */
export const ACCESS_TOKEN_PREFIX = "qz_at_";
export const REFRESH_TOKEN_PREFIX = "qz_rt_";
const CLIENT_SECRET_PREFIX = "qz_cs_";
/** A learner session's token (one user at one quiz) and a report session's (reading named quizzes), §17. */
export const LEARNER_TOKEN_PREFIX = "qz_lt_";
export const REPORT_TOKEN_PREFIX = "qz_vt_";
const TOKEN_RANDOM_LENGTH = 43; // ≈256 bits of base62

function checksum(body: string): string {
  // CRC32.str gives a signed 32-bit integer; >>> 0 makes it unsigned.
  return toBase62(CRC32.str(body) >>> 0, CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
  return body + checksum(body);
}

export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === key.slice(-CHECKSUM_LENGTH);
}

/** The start of a key that is safe to show, so people can tell their keys apart. */
export const displayPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 4);

export const generateAccessToken = () => ACCESS_TOKEN_PREFIX + randomBase62(TOKEN_RANDOM_LENGTH);
export const generateRefreshToken = () => REFRESH_TOKEN_PREFIX + randomBase62(TOKEN_RANDOM_LENGTH);
export const generateClientSecret = () => CLIENT_SECRET_PREFIX + randomBase62(TOKEN_RANDOM_LENGTH);
export const generateLearnerToken = () => LEARNER_TOKEN_PREFIX + randomBase62(TOKEN_RANDOM_LENGTH);
export const generateReportToken = () => REPORT_TOKEN_PREFIX + randomBase62(TOKEN_RANDOM_LENGTH);
