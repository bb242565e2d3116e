/**
 * The work one read of a file may do (docs/security.md, "Parsing has a budget"). Every reader is
 * linear in its input, and these limits bound the input's multipliers — references to one item,
 * the nodes a processing rule makes the importer evaluate, the responses it is probed with, the
 * bytes a package inflates to — so a small hostile file is refused early with a code instead of
 * keeping a queue invocation busy for seconds. A file a person or another system exported stays
 * well inside each limit.
 */
import { InterchangeError } from "./errors";

export const BUDGET = {
  /** Items an import reads at most (a quiz holds 200 questions): QTI references and resources, Moodle questions, Aiken blocks. */
  items: 1_000,
  /** XML elements, attributes and texts in all of a file's documents together: about a second of parsing. */
  xmlNodes: 1_000_000,
  /**
   * XML elements, attributes and texts in one document: what one parse may hold in memory (about
   * 50 MB). A Moodle question takes about 100, so a file of 1 000 questions about 100 000.
   */
  xmlNodesPerDocument: 250_000,
  /** Elements open at once in an XML document. */
  xmlDepth: 100,
  /**
   * Attributes of one XML element: the parser holds a start tag's attributes until the tag ends,
   * so this bounds what one tag may make it hold. A QTI element has about a dozen at most.
   */
  xmlAttributesPerElement: 100,
  /**
   * Steps of QTI response processing (an expression evaluated, a rule run, a value compared) over
   * all items and probes: about a second of work. A quiz of 200 items with custom processing of
   * 30 expressions, each probed 30 times, takes 180 000.
   */
  evaluationSteps: 1_000_000,
  /** Responses an item's processing is probed with (formats/qti/probe.ts). */
  probesPerItem: 150,
  /** Bytes a package inflates to, over every entry read and every pass. */
  inflatedBytes: 100 * 1024 * 1024,
} as const;

type Spent = "xmlNodes" | "evaluationSteps" | "inflatedBytes";

const WHAT: Record<Spent, string> = {
  xmlNodes: "XML nodes",
  evaluationSteps: "steps of response processing",
  inflatedBytes: "bytes inflated",
};

/** Over its limit: the file is refused whole (`too_complex`; bytes inflated: `unsafe_package`, as a zip bomb). */
const overBudget = (kind: Spent) =>
  new InterchangeError(
    kind === "inflatedBytes" ? "unsafe_package" : "too_complex",
    kind === "inflatedBytes"
      ? "The package inflates to more than 100 MiB."
      : `The file needs more work than an import does: over ${BUDGET[kind].toLocaleString("en-US")} ${WHAT[kind]}.`,
  );

/** What one read has spent so far; `spend` throws the refusal as soon as a limit is passed. */
export class WorkBudget {
  private spent: Record<Spent, number> = { xmlNodes: 0, evaluationSteps: 0, inflatedBytes: 0 };

  spend(kind: Spent, amount = 1): void {
    this.spent[kind] += amount;
    if (this.spent[kind] > BUDGET[kind]) throw overBudget(kind);
  }
}

/** More than BUDGET.items items: refused before they are read. */
export const tooManyItems = (count: number | string) =>
  new InterchangeError(
    "too_many_items",
    `The file holds ${count} items; an import reads at most ${BUDGET.items} (a quiz holds at most 200 questions): split it.`,
  );
