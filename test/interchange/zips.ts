import { Deflate } from "fflate";
import { bytes } from "./fixtures";

/** Hostile zips for the safety tests (here and through POST /v1/imports). */

/** A manifest naming items/bomb.xml as its item: entries no pass reads are never inflated, so a bomb must be read to go off. */
export const BOMB_MANIFEST = `<manifest><resources><resource identifier="B" type="imsqti_item_xmlv2p1" href="items/bomb.xml"/></resources></manifest>`;

/** A zip written byte by byte, so an entry can lie about its size or carry any path. */
export function rawZip(entries: { name: string; data: Uint8Array; method: 0 | 8; crc: number; size: number }[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = bytes(e.name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, e.method, true);
    local.setUint32(14, e.crc, true);
    local.setUint32(18, e.data.length, true);
    local.setUint32(22, e.size, true);
    local.setUint16(26, name.length, true);
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(6, 20, true);
    header.setUint16(10, e.method, true);
    header.setUint32(16, e.crc, true);
    header.setUint32(20, e.data.length, true);
    header.setUint32(24, e.size, true);
    header.setUint16(28, name.length, true);
    header.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, e.data);
    central.push(new Uint8Array(header.buffer), name);
    offset += 30 + name.length + e.data.length;
  }
  const centralSize = central.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...central, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `mebibytes` MiB of zeros, deflated without ever holding them. */
export function deflatedZeros(mebibytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const deflate = new Deflate({ level: 1 }, (chunk) => chunks.push(chunk));
  const zeros = new Uint8Array(1024 * 1024);
  for (let i = 0; i < mebibytes; i++) deflate.push(zeros, i === mebibytes - 1);
  return zipJoin(chunks);
}
const zipJoin = (chunks: Uint8Array[]) => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};
