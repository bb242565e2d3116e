import { followKeptGrades } from "../grading/kept-grade-followers";
import { keptGradeStatement } from "../lti/ledger";

/**
 * Where the processes that may not import each other are joined, once per isolate by the entry
 * (src/index.ts): the LTI ledger follows the kept grades grading announces.
 */
export function wireProcesses(): void {
  followKeptGrades({ statement: keptGradeStatement });
}
