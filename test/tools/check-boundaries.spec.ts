import { describe, expect, it } from "vitest";
import { importProblems } from "../../scripts/check-boundaries";

/** The import-boundary check (npm run check:boundaries): what it refuses and what it lets through. */
describe("import boundaries", () => {
  const from = (file: string, ...specifiers: string[]) =>
    importProblems(file, specifiers.map((s) => `import { x } from "${s}";`).join("\n"));

  it("lets every layer import down", () => {
    expect(from("src/domain/grading.ts", "../lib/errors", "./scopes")).toEqual([]);
    expect(from("src/grading/grade.ts", "../db/schema", "../events/outbox", "../lti/ledger", "../jobs/jobs")).toEqual([]);
    expect(from("src/worker/queue.ts", "../grading/deadlines", "../events/deliver")).toEqual([]);
    expect(from("src/index.ts", "./app", "./worker/queue")).toEqual([]);
    expect(from("src/app.ts", "./routes/quizzes/quizzes.index", "./middleware/request-body")).toEqual([]);
  });

  it("refuses an import up the layers", () => {
    expect(from("src/domain/grading.ts", "../db/schema")).toEqual([
      "src/domain/grading.ts → src/db/schema: domain may not import db",
    ]);
    expect(from("src/lib/config.ts", "../grading/grade")).toHaveLength(1);
    expect(from("src/grading/grade.ts", "../routes/submissions/submissions.handlers")).toEqual([
      "src/grading/grade.ts → src/routes/submissions/submissions.handlers: grading may not import routes",
    ]);
    expect(from("src/interchange/gift.ts", "../db/schema")).toHaveLength(1);
  });

  it("keeps the entry to the app and the worker", () => {
    expect(from("src/index.ts", "./routes/submissions/submissions.handlers")).toEqual([
      "src/index.ts → src/routes/submissions/submissions.handlers: index may not import routes",
    ]);
    expect(from("src/grading/grade.ts", "../app")).toEqual([
      "src/grading/grade.ts → src/app: only tools and the entry may import the app",
    ]);
  });

  it("lets a resource reach another only by its schemas", () => {
    expect(from("src/routes/grades/grades.routes.ts", "../quizzes/quizzes.schemas")).toEqual([]);
    expect(from("src/routes/grades/grades.handlers.ts", "./grades.schemas")).toEqual([]);
    expect(from("src/routes/grades/grades.handlers.ts", "../quizzes/quizzes.handlers")).toEqual([
      "src/routes/grades/grades.handlers.ts → src/routes/quizzes/quizzes.handlers: a resource imports another resource only by its schemas",
    ]);
  });

  it("keeps tools off route modules and middleware", () => {
    expect(from("test/routes/quizzes/get.test.ts", "../../../src/app", "../../../src/grading/grade")).toEqual([]);
    expect(from("bench/run.ts", "../src/routes/quizzes/quizzes.handlers")).toHaveLength(1);
    expect(from("scripts/x.ts", "../src/middleware/request-body")).toHaveLength(1);
  });

  it("reads dynamic imports and re-exports, and ignores packages", () => {
    expect(importProblems("src/domain/a.ts", 'export { y } from "../db/schema";')).toHaveLength(1);
    expect(importProblems("src/domain/a.ts", 'const m = await import("../db/schema");')).toHaveLength(1);
    expect(importProblems("src/domain/a.ts", 'import { z } from "zod";\nimport { Hono } from "hono";')).toEqual([]);
  });

  it("lets anyone use src/env.ts's types", () => {
    expect(from("src/lib/config.ts", "../env")).toEqual([]);
  });
});
