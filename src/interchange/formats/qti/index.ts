import { isZip } from "../../zip";
import { defineFormat } from "../format";
import { readQtiPackage, readQtiXml } from "./read";
import { writeQtiPackage } from "./write";

/** QTI 2.1, 2.2 and 3.0: an IMS content package (zip), or one item as XML; written as a 3.0 or a 2.1 package. */
export const qti = defineFormat({
  id: "qti",
  mediaTypes: ["application/zip", "application/xml", "text/xml"],
  recognise: (start) =>
    start.zip || /^(assessmentItem|assessmentTest|qti-assessment-item|qti-assessment-test)$/.test(start.root ?? "") ? 1 : 0,
  read: (bytes, budget) => (isZip(bytes) ? readQtiPackage(bytes, budget) : readQtiXml(bytes, budget)),
  write: {
    qti3: (quiz, questions, context) => writeQtiPackage("3.0", quiz, questions, context),
    qti21: (quiz, questions, context) => writeQtiPackage("2.1", quiz, questions, context),
  },
});
