import { decodeText } from "../../xml";
import { defineFormat } from "../format";
import { readGift } from "./read";
import { writeGift } from "./write";

/** GIFT's marks: answers in braces (a `{` followed by a `}` with no brace between), or a line starting with `::` or `$CATEGORY:`. */
function looksLikeGift(text: string, lines: string[]): boolean {
  let open = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "{") open = true;
    else if (text[i] === "}" && open) return true;
  }
  return lines.some((l) => l.startsWith("::") || l.startsWith("$CATEGORY:"));
}

/** Moodle's GIFT: one question a block, its answers in braces. */
export const gift = defineFormat({
  id: "gift",
  mediaTypes: ["text/plain"],
  // Less sure than Aiken's ANSWER: lines: an Aiken file may hold braces.
  recognise: ({ plain }) => (plain && looksLikeGift(plain.text, plain.lines) ? 0.5 : 0),
  read: (bytes, _budget, { origin }) => readGift(decodeText(bytes), origin),
  write: { gift: writeGift },
});
