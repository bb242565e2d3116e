import type { WorkBudget } from "../budget";
import type { ExportContext } from "../rich";
import type { ExportFile, ImportResult, QuizForExport, QuizQuestion } from "../types";

/**
 * A question-bank format (Moodle's question/format/<format>/format.php is the model): the media
 * types an upload of it comes as, how its start is told, its reader, and its writers. Each format
 * is one folder beside this file; the registry (index.ts) lists them.
 */

/** What recognising reads of an upload: its first bytes (RECOGNISE_PREFIX_BYTES), never the whole file. */
export interface FileStart {
  /** A zip archive (a package). */
  zip: boolean;
  /** The root element's local name, when the start is XML. */
  root?: string;
  /** The start as text and its trimmed lines, when it is neither a zip nor XML, nor sent as XML. */
  plain?: { text: string; lines: string[] };
}

/** What a read knows of where it runs. */
interface ReadContext {
  /** The service's origin: a text's `img` may name one of its assets by its absolute URL (GIFT's exports do). */
  origin?: string;
}

/** A writer of one export format: the quiz and its questions (keys included) in, a file out. */
export type Writer = (quiz: QuizForExport, questions: QuizQuestion[], context: ExportContext) => ExportFile;

export interface Format<Id extends string = string, MediaType extends string = string, Export extends string = string> {
  /** The format's name in `?format=` of POST /v1/imports and in an import's result. */
  id: Id;
  /** The media types an upload of the format may be sent as. */
  mediaTypes: readonly MediaType[];
  /**
   * How surely `start` is of this format: 0 not at all. An upload is the format that claims it
   * most surely; a zip or an XML root is sure (1).
   */
  recognise(start: FileStart): number;
  /** The upload's items in source order with their report entries, within the read's one budget; refusals throw InterchangeError. */
  read(bytes: Uint8Array, budget: WorkBudget, context: ReadContext): ImportResult<Id>;
  /** Its writers, by the name of the export format (`?format=` of GET /v1/quizzes/{id}/export). */
  write?: Readonly<Record<Export, Writer>>;
}

/** A format, its names kept as literals (so that the registry's lists of names are types too). */
export const defineFormat = <const Id extends string, const MediaType extends string, const Export extends string = never>(
  format: Format<Id, MediaType, Export>,
) => format;
