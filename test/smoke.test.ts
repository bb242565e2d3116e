import { describe, expect, it } from "vitest";
import { call } from "./helpers";

describe("smoke", () => {
  it("creates and reads a quiz", async () => {
    const created = await call("/v1/quizzes", { body: { title: "T", questions: [{ type: "true_false", prompt: "Sky blue?", correct: true }] } });
    expect(created.status, created.text).toBe(201);
    const got = await call(`/v1/quizzes/${created.json.id}`);
    expect(got.json.questions).toBe(1);
  });
});
