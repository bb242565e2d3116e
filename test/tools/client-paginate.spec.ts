// paginate(): every item of a list, following next_cursor, typed from the document.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type components,
  createQuizClient,
  type ListItem,
  type ListPath,
  paginate,
  QuizApiError,
} from "../../clients/typescript/index";
import { json, problem, scriptedFetch } from "./client-fakes";

const BASE = "https://quiz.test";
const page = (key: string, ids: string[], next: string | null) =>
  json(200, { [key]: ids.map((id) => ({ id })), next_cursor: next });

function client(steps: Parameters<typeof scriptedFetch>[0]) {
  const fake = scriptedFetch(steps);
  return { api: createQuizClient({ baseUrl: BASE, apiKey: "qz_live_test", fetch: fake.fetch }), sent: fake.sent };
}

describe("paginate", () => {
  it("yields every item of every page, in order, sending each next_cursor back with the same limit", async () => {
    const { api, sent } = client([
      page("quizzes", ["q1", "q2"], "c1"),
      page("quizzes", ["q3", "q4"], "c2"),
      page("quizzes", ["q5"], null),
    ]);
    const ids: string[] = [];
    for await (const quiz of paginate(api, "/v1/quizzes", { params: { query: { limit: 2 } } })) ids.push(quiz.id);
    expect(ids).toEqual(["q1", "q2", "q3", "q4", "q5"]);
    expect(sent.map((s) => new URL(s.url).search)).toEqual(["?limit=2", "?limit=2&cursor=c1", "?limit=2&cursor=c2"]);
  });

  it("fills in the path's parameters and reads the list under its own name", async () => {
    const { api, sent } = client([page("submissions", ["s1"], "c1"), page("submissions", ["s2"], null)]);
    const ids: string[] = [];
    const submissions = paginate(api, "/v1/quizzes/{id}/submissions", {
      params: { path: { id: "quiz_01" }, query: { limit: 1, status: "needs_review" } },
    });
    for await (const submission of submissions) ids.push(submission.id);
    expect(ids).toEqual(["s1", "s2"]);
    expect(sent[1]?.url).toBe(`${BASE}/v1/quizzes/quiz_01/submissions?limit=1&status=needs_review&cursor=c1`);
  });

  it("fetches a page only when the loop asks for its items", async () => {
    const { api, sent } = client([page("users", ["u1", "u2"], "c1"), page("users", ["u3"], null)]);
    for await (const user of paginate(api, "/v1/users")) {
      expect(user.id).toBe("u1");
      break;
    }
    expect(sent).toHaveLength(1);
  });

  it("throws a QuizApiError with the problem details when a page fails", async () => {
    const { api } = client([page("quizzes", ["q1"], "c1"), problem(400, "invalid_cursor")]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const quiz of paginate(api, "/v1/quizzes")) seen.push(quiz.id);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["q1"]);
    expect(error).toBeInstanceOf(QuizApiError);
    expect(error).toMatchObject({ status: 400, problem: { code: "invalid_cursor" } });
  });

  it("is typed from the document: each list's own item type, only list paths, path parameters required", () => {
    expectTypeOf<ListItem<"/v1/quizzes">>().toEqualTypeOf<components["schemas"]["Quiz"]>();
    expectTypeOf<"/v1/webhook-endpoints/{id}/deliveries">().toMatchTypeOf<ListPath>();
    expectTypeOf<"/v1/quizzes/{id}">().not.toMatchTypeOf<ListPath>();
    const api = createQuizClient({ baseUrl: BASE, apiKey: "qz_live_test" });
    // @ts-expect-error a single quiz is not a list
    void (() => paginate(api, "/v1/quizzes/{id}", { params: { path: { id: "quiz_01" } } }));
    // @ts-expect-error the quiz's id is required
    void (() => paginate(api, "/v1/quizzes/{id}/questions"));
    // @ts-expect-error the cursor is paginate's business
    void (() => paginate(api, "/v1/quizzes", { params: { query: { cursor: "c1" } } }));
  });
});
