import { decodeText } from "../../xml";
import { defineFormat } from "../format";
import { readAiken } from "./read";

/** Aiken's marks, line by line: an `ANSWER: X` line and an option line (`A.` or `A)`). */
const looksLikeAiken = (lines: string[]) =>
  lines.some((l) => /^ANSWER:\s*[A-Za-z]$/.test(l)) && lines.some((l) => /^[A-Z][.)][ \t]?\S/.test(l));

/** Aiken: single-choice questions, one part a line. Read only: nothing is written in it. */
export const aiken = defineFormat({
  id: "aiken",
  mediaTypes: ["text/plain"],
  recognise: ({ plain }) => (plain && looksLikeAiken(plain.lines) ? 0.9 : 0),
  read: (bytes) => readAiken(decodeText(bytes)),
});
