import type { QuestionInput } from "../../types";
import type { XmlElement } from "../../xml";
import type { QtiValue } from "./rp";

/** An item's interactions as a question, with how a service response reads as the item's QTI responses (for the probes). */
export interface Built {
  question: QuestionInput;
  /** The service response that is the key. */
  correct: unknown;
  toQti(response: unknown): Map<string, QtiValue>;
  /** An interaction's place in the question text; undefined for other elements. */
  render(e: XmlElement): string | undefined;
}
