import { aiken } from "./aiken";
import type { Format, Writer } from "./format";
import { gift } from "./gift";
import { moodleXml } from "./moodle-xml";
import { qti } from "./qti";

/**
 * Every question-bank format, one folder each, in the order the API lists them (docs/import-export.md).
 * The import formats, the export formats and the upload's media types are read from here. Adding
 * a format is adding its folder and its line here.
 */
export const FORMATS = [qti, gift, moodleXml, aiken] as const;

type Formats = (typeof FORMATS)[number];
export type ImportFormat = Formats["id"];
type ExportsOf<F> = F extends Format<string, string, infer E> ? E : never;
export type ExportFormat = ExportsOf<Formats>;
/** The media types an upload may be sent as: every format's. */
type ImportMediaType = Formats["mediaTypes"][number];

export const IMPORT_FORMATS = FORMATS.map((format) => format.id) as [ImportFormat, ...ImportFormat[]];

const WRITERS = Object.fromEntries(
  FORMATS.flatMap((format: Format): [string, Writer][] => Object.entries(format.write ?? {})),
) as Record<ExportFormat, Writer>;
export const EXPORT_FORMATS = Object.keys(WRITERS) as [ExportFormat, ...ExportFormat[]];

/** The upload media types docs/import-export.md lists, with what each holds; anything else is a 415 before any reading. */
export const IMPORT_MEDIA_TYPES = [...new Set(FORMATS.flatMap((format) => format.mediaTypes))] as [
  ImportMediaType,
  ...ImportMediaType[],
];

/** What an upload of each media type holds (POST /v1/imports's request body). */
export const IMPORT_MEDIA_TYPE_CONTENTS: Record<ImportMediaType, string> = {
  "application/zip": "An IMS content package: imsmanifest.xml, QTI 2.1, 2.2 or 3.0 items and tests.",
  "application/xml": "One QTI item, or a Moodle XML file.",
  "text/xml": "As application/xml.",
  "text/plain": "GIFT or Aiken, UTF-8 (or UTF-16 with its byte order mark).",
};

export const formatOf = (id: ImportFormat) => FORMATS.find((format) => format.id === id) as Format<ImportFormat>;
export const writerOf = (id: ExportFormat): Writer => WRITERS[id];
