// Every shell snippet of the README from its walk-through on runs as pasted after it, in the same
// shell: each variable a snippet uses ($QUIZ, $LEARNER, $JOB, …) is set by the walk-through or an
// earlier snippet. The docs' snippets that build on the walk-through use only what it sets.
// (test/e2e/readme.test.ts runs the README's against npm run dev.)
import { describe, expect, it } from "vitest";
import { readmeSnippetsFromWalkthrough, type Snippet, shSnippets, variables } from "../support/shell-snippets";

/** Uses of a variable that no earlier line of these snippets set, as "file:line $NAME". */
function unset(snippets: Snippet[], given: Set<string>): string[] {
  const set = new Set(given);
  const missing: string[] = [];
  for (const snippet of snippets) {
    const [file, first] = snippet.where.split(":") as [string, string];
    for (const { line, uses, sets } of variables(snippet.code)) {
      for (const name of uses) if (!set.has(name)) missing.push(`${file}:${Number(first) + line} $${name}`);
      for (const name of sets) set.add(name);
    }
  }
  return missing;
}

/** What the README's snippets set, walk-through first. */
function walkthroughSets(): Set<string> {
  const names = new Set<string>();
  for (const snippet of readmeSnippetsFromWalkthrough())
    for (const { sets } of variables(snippet.code)) for (const name of sets) names.add(name);
  return names;
}

describe("the README's snippets", () => {
  it("start with the walk-through, and leave out none of its sections but the deployment", () => {
    const snippets = readmeSnippetsFromWalkthrough();
    expect(snippets[0]?.section).toBe("Walk-through");
    expect(snippets.map((s) => s.section)).toEqual(
      expect.arrayContaining(["Attempts the server controls", "Regrade and item analysis", "Question banks in and out"]),
    );
  });

  it("use only variables that the walk-through or an earlier snippet sets", () => {
    expect(unset(readmeSnippetsFromWalkthrough(), new Set())).toEqual([]);
  });

  it("are checked for real: a use of a variable nothing sets is found", () => {
    const snippet = {
      where: "README.md:1",
      section: "Walk-through",
      code: 'QUIZ=1\ncurl "$API/v1/quizzes/$QUIZ_ID" # $NOT_A_USE',
    };
    expect(unset([snippet], new Set(["API"]))).toEqual(["README.md:2 $QUIZ_ID"]);
  });
});

describe("the docs' snippets that build on the walk-through", () => {
  for (const file of ["docs/api.md", "docs/webhooks.md", "docs/import-export.md"]) {
    it(`${file} uses only the walk-through's variables ($API, $QUIZ_KEY, $QUIZ, …) or its own`, () => {
      expect(unset(shSnippets(file), walkthroughSets())).toEqual([]);
    });
  }
});
