import { z } from "@hono/zod-openapi";
import { EXPORT_FORMATS, exportQuiz, type QuizQuestion } from "../../interchange";

export const QuizExportQuery = z.strictObject({
  format: z.enum(EXPORT_FORMATS).openapi({
    description:
      "`qti3`: a QTI 3.0 content package; `qti21`: the same in QTI 2.1 (both `application/zip`: `imsmanifest.xml`, one assessment test, one item per question); `gift`: Moodle's GIFT (`text/plain; charset=utf-8`); `moodle_xml`: Moodle XML (`application/xml`).",
    example: "qti3",
  }),
});

export const QUIZ_EXPORT_HEADERS = z.object({
  "Content-Disposition": z.string().openapi({
    description: 'attachment; filename="<slug of the quiz title>.<zip|gift|xml>"',
    example: 'attachment; filename="capitals-of-europe.zip"',
  }),
  "Export-Skipped": z.string().optional().openapi({
    description:
      "The ids of the questions the format cannot express, comma-separated, in quiz order; they are left out of the file and named in a comment at its top. Absent when every question is in the file.",
    example: "qst_01kamz3f7c9n0p8s6e5vwx2y4r,qst_01kamz3g1d2e3f4g5h6j7k8m9n",
  }),
});

/** The examples' quiz as the writers write it, for the document's examples (made by the writers themselves). */
const SAMPLE: QuizQuestion = {
  id: "qst_01kamz3f7c9n0p8s6e5vwx2y4r",
  type: "single_choice",
  title: "Capital of France",
  tags: ["geography"],
  prompt: "What is the capital of France?",
  points: 1,
  feedback: {},
  explanation: "Paris has been the capital since 987.",
  options: [
    { id: "a", text: "Paris" },
    { id: "b", text: "Lyon", feedback: "Lyon is France's third city." },
  ],
  correct_option_id: "a",
};
const SAMPLE_2: QuizQuestion = {
  id: "qst_01kamz3g1d2e3f4g5h6j7k8m9n",
  type: "true_false",
  title: null,
  tags: [],
  prompt: "Berlin is the capital of Germany.",
  points: 1,
  feedback: {},
  explanation: null,
  correct: true,
};
const example = (format: "gift" | "moodle_xml") =>
  String(exportQuiz(format, { title: "Capitals of Europe" }, [SAMPLE, SAMPLE_2]).body);
export const GIFT_EXAMPLE = example("gift");
/** A zip's bytes are not text: the example names the package's entries, as the QTI writer lays them out. */
export const QTI_PACKAGE_EXAMPLE = [
  "(binary) A zip archive, its first bytes PK\\x03\\x04, holding an IMS content package:",
  "imsmanifest.xml",
  "tests/test.xml",
  "items/qst_01kamz3f7c9n0p8s6e5vwx2y4r.xml",
  "items/qst_01kamz3g1d2e3f4g5h6j7k8m9n.xml",
].join("\n");
export const MOODLE_XML_EXAMPLE = example("moodle_xml");
