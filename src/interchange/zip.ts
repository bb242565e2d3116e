/**
 * Safe zip reading and plain zip writing with fflate. An upload is refused (`unsafe_package`)
 * when its central directory lists more than MAX_ENTRIES entries, an entry path that could leave
 * its folder, or more than MAX_UNCOMPRESSED_BYTES in total; the entries read are then inflated
 * in small steps and counted as they come out against the read's budget (budget.ts: the bytes of
 * every entry read, over every pass), so a zip bomb that lies about its sizes is stopped at the
 * limit, never after, and reading a package again cannot multiply it.
 */
import { type AsyncFlateStreamHandler, Inflate, Unzip, type UnzipFile, unzipSync, zipSync } from "fflate";
import { BUDGET, WorkBudget } from "./budget";
import { InterchangeError, unreadable } from "./errors";

export const MAX_ENTRIES = 1_000;
export const MAX_UNCOMPRESSED_BYTES = BUDGET.inflatedBytes;
/** The most of one entry kept in memory: no question file is near it, and a bomb's bytes are counted, not kept. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
/** Compressed bytes fed to the inflater at a time: deflate expands at most ~1 032×, so ≤ ~1 MiB out per step. */
const INFLATE_STEP_BYTES = 1024;

const unsafe = (detail: string) => new InterchangeError("unsafe_package", detail);

/** True for a path that is absolute (`/x`, `\x`, `C:x`) or climbs (`..` as a segment). */
function isUnsafeEntryPath(name: string): boolean {
  return /^[/\\]|^[A-Za-z]:/.test(name) || name.split(/[/\\]/).includes("..") || name.includes("\0");
}

/** The local file header signature "PK\3\4": how a zip (and so an IMS package) starts. */
export const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;

/** The entries of a zip that `wanted` selects, inflated, by name (see scanZip). */
export function readZip(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  budget = new WorkBudget(),
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  scanZip(bytes, wanted, (name, data) => out.set(name, data), budget);
  return out;
}

/**
 * Inflates the entries of a zip that `wanted` selects, one at a time in the zip's order, and hands
 * each to `onEntry`; what the caller does not keep is dropped before the next entry is inflated,
 * so a package's memory is its largest entry, not its sum. Every entry's name and count are
 * checked first, whatever is wanted, and every byte inflated is counted against the limit.
 */
export function scanZip(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  onEntry: (name: string, data: Uint8Array) => void,
  budget = new WorkBudget(),
  /** Entries over `keepAtMost` bytes are inflated (and counted) but not kept: `onTooLarge` names them instead of the read failing. */
  large?: { keepAtMost: number; onTooLarge: (name: string) => void },
) {
  const listed: { name: string; originalSize: number }[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        listed.push(file);
        if (listed.length > MAX_ENTRIES) throw unsafe(`The package has more than ${MAX_ENTRIES} entries.`);
        return false;
      },
    });
  } catch (error) {
    if (error instanceof InterchangeError) throw error;
    throw unreadable(`Not a readable zip file (${(error as Error).message}): truncated or damaged.`);
  }
  let declared = 0;
  for (const { name, originalSize } of listed) {
    if (isUnsafeEntryPath(name)) throw unsafe(`The entry path "${name.slice(0, 200)}" is absolute or contains "..".`);
    declared += originalSize;
  }
  if (declared > MAX_UNCOMPRESSED_BYTES) throw unsafe("The package holds more than 100 MiB uncompressed.");
  const names = new Set(listed.map((f) => f.name));

  const count = (n: number) => budget.spend("inflatedBytes", n);
  // Feeds the compressed bytes in small steps, so no step can produce more than about a MiB.
  class SteppedInflate {
    static compression = 8;
    ondata: AsyncFlateStreamHandler = () => {};
    private inflate = new Inflate((chunk, final) => this.ondata(null, chunk, final));
    push(chunk: Uint8Array, final: boolean) {
      if (chunk.length === 0) this.inflate.push(chunk, final);
      for (let i = 0; i < chunk.length; i += INFLATE_STEP_BYTES)
        this.inflate.push(chunk.subarray(i, i + INFLATE_STEP_BYTES), final && i + INFLATE_STEP_BYTES >= chunk.length);
    }
  }

  const seen = new Set<string>();
  const pending = new Set<string>();
  // What the caller's reading of an entry threw passes through as it is: it says nothing of the zip.
  let entryError: unknown;
  const unzip = new Unzip((file: UnzipFile) => {
    if (!names.has(file.name) || !wanted(file.name) || seen.has(file.name)) return;
    seen.add(file.name);
    const chunks: Uint8Array[] = [];
    let size = 0;
    pending.add(file.name);
    const keep = Math.min(large?.keepAtMost ?? MAX_ENTRY_BYTES, MAX_ENTRY_BYTES);
    file.ondata = (error, chunk, final) => {
      if (error) throw unreadable(`The entry "${file.name}" cannot be inflated: ${error.message}.`);
      count(chunk.length);
      size += chunk.length;
      if (size <= keep) chunks.push(chunk);
      if (final) {
        pending.delete(file.name);
        if (size > keep && large) return large.onTooLarge(file.name);
        if (size > MAX_ENTRY_BYTES)
          throw unreadable(`The entry "${file.name}" is over 16 MiB uncompressed, more than any question file.`);
        try {
          onEntry(file.name, concat(chunks));
        } catch (error) {
          entryError = error;
          throw error;
        }
      }
    };
    file.start();
  });
  unzip.register(SteppedInflate);
  try {
    unzip.push(bytes, true);
  } catch (error) {
    if (error instanceof InterchangeError || (entryError !== undefined && error === entryError)) throw error;
    throw unreadable(`Not a readable zip file (${(error as Error).message}).`);
  }
  if (pending.size > 0) throw unreadable(`The entry "${[...pending][0]}" is truncated.`);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/** A fixed time for every entry: the same quiz exports to the same bytes. */
const ENTRY_TIME = new Date("2026-01-01T00:00:00Z");

/** A zip of the files: texts as UTF-8, bytes as they are (images, stored without compressing what is compressed already). */
export function writeZip(files: Record<string, string | Uint8Array>): Uint8Array {
  const encoder = new TextEncoder();
  const input: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {};
  for (const [name, data] of Object.entries(files))
    input[name] = typeof data === "string" ? encoder.encode(data) : [data, { level: 0 }];
  return zipSync(input, { level: 6, mtime: ENTRY_TIME });
}
