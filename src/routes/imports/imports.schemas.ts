import { z } from "@hono/zod-openapi";
import { IMPORT_FORMATS, IMPORT_MEDIA_TYPE_CONTENTS, IMPORT_MEDIA_TYPES } from "../../interchange";
import { idSchema } from "../../lib/ids";
import { singleLineText } from "../../lib/text";

/** An import's file is at most 10 MiB (docs/import-export.md), counted while it streams. */
const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** The body rules of POST /v1/imports, which the /v1 body guard applies instead of JSON's (src/app.ts). */
export const IMPORT_UPLOAD = { mediaTypes: IMPORT_MEDIA_TYPES, maxBytes: IMPORT_MAX_BYTES, limitText: "10 MiB" } as const;

export const ImportQuery = z
  .strictObject({
    format: z.enum(IMPORT_FORMATS).optional().openapi({
      description:
        "`qti` (an IMS content package as application/zip, or one QTI 2.1, 2.2 or 3.0 item as XML), `moodle_xml`, `gift` or `aiken`. Left out: recognised from the file (a zip is QTI; XML by its root element; text by GIFT's braces or Aiken's ANSWER: lines), else 400 unknown_format.",
      example: "moodle_xml",
    }),
    quiz_id: idSchema("quiz").optional().openapi({
      description: "Append to this quiz (after its last question, while it has room for 200); left out: a new quiz.",
    }),
    title: singleLineText(200).optional().openapi({
      description: "The new quiz's title; left out: the file's (a QTI test's or package's), else “Imported questions (<date>)”.",
      example: "Chemistry bank, unit 3",
    }),
  })
  .superRefine((query, ctx) => {
    if (query.title !== undefined && query.quiz_id !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["title"],
        message: "A title names a new quiz; an import into quiz_id keeps that quiz's title.",
      });
  });

/** The file's bytes; maxLength states the 10 MiB limit (the guard counts bytes, not characters). */
const file = (description: string) => ({
  schema: z.string().openapi({ format: "binary", maxLength: IMPORT_MAX_BYTES, description }),
});

export const IMPORT_BODY = {
  required: true,
  description: "The file itself, at most 10 MiB; its Content-Type says what it is.",
  content: Object.fromEntries(IMPORT_MEDIA_TYPES.map((type) => [type, file(IMPORT_MEDIA_TYPE_CONTENTS[type])])),
};

/** The media types an import takes, as a sentence lists them: "a, b, c or d". */
export const IMPORT_MEDIA_TYPES_TEXT = `${IMPORT_MEDIA_TYPES.slice(0, -1).join(", ")} or ${IMPORT_MEDIA_TYPES.at(-1)}`;
