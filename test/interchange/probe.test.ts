import { zipSync } from "fflate";
import { it } from "vitest";
import { readQuestionBank } from "../../src/interchange";
import { bytes, QTI } from "./fixtures";
import { BLUE_PNG, BMP, RED_PNG, bigPng } from "./images";
it("probe", () => {
  const files: Record<string, Uint8Array> = Object.fromEntries(Object.entries(QTI.rich).map(([k, v]) => [k, bytes(v)]));
  files["images/flask.png"] = RED_PNG;
  files["images/beaker.png"] = BLUE_PNG;
  files["images/scan.bmp"] = BMP;
  files["images/huge.png"] = bigPng(5 * 1024 * 1024 + 1);
  const r = readQuestionBank(zipSync(files), { mediaType: "application/zip" });
  console.log(JSON.stringify(r.items, null, 1), r.images?.map((i) => [i.id, i.bytes.length, i.width]));
});
