import { decodeText } from "../../xml";
import { defineFormat } from "../format";
import { readMoodleXml } from "./read";
import { writeMoodleXml } from "./write";

/** Moodle XML: a <quiz> of <question> elements. */
export const moodleXml = defineFormat({
  id: "moodle_xml",
  mediaTypes: ["application/xml", "text/xml"],
  recognise: (start) => (start.root === "quiz" ? 1 : 0),
  read: (bytes, budget) => readMoodleXml(decodeText(bytes), budget),
  write: { moodle_xml: writeMoodleXml },
});
