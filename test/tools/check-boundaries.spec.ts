import { describe, expect, it } from "vitest";
import { importProblems } from "../../scripts/check-boundaries";

/** The import-boundary check (npm run check:boundaries): what it refuses and what it lets through. */
describe("import boundaries", () => {
  const from = (file: string, ...specifiers: string[]) =>
    importProblems(file, specifiers.map((s) => `import { x } from "${s}";`).join("\n"));

  it("lets every layer import down", () => {
    expect(from("src/domain/grading.ts", "../lib/errors", "./scopes")).toEqual([]);
    expect(from("src/grading/grade.ts", "../db/schema", "../events/outbox", "../queue/send", "../jobs/jobs")).toEqual([]);
    expect(from("src/lti/passback.ts", "../db/outbox", "../outbound/request", "../queue/send", "../lib/sealing")).toEqual([]);
    expect(from("src/worker/wiring.ts", "../grading/kept-grade-followers", "../lti/ledger")).toEqual([]);
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

  it("keeps grading off LTI, and LTI off the events of webhooks", () => {
    expect(from("src/grading/grade.ts", "../lti/ledger")).toEqual([
      "src/grading/grade.ts → src/lti/ledger: grading may not import lti",
    ]);
    expect(from("src/grading/totals.ts", "../lti")).toEqual(["src/grading/totals.ts → src/lti: grading may not import lti"]);
    expect(from("src/lti/passback.ts", "../events/subscribers")).toEqual([
      "src/lti/passback.ts → src/events/subscribers: lti may not import events",
    ]);
    expect(from("src/lti/keys.ts", "../events/secrets")).toHaveLength(1);
  });

  it("keeps the plumbing at the bottom: the queue and the outbound request import no feature", () => {
    expect(from("src/queue/send.ts", "../lib/log")).toEqual([]);
    expect(from("src/queue/consume.ts", "../events/deliver")).toEqual([
      "src/queue/consume.ts → src/events/deliver: queue may not import events",
    ]);
    expect(from("src/outbound/request.ts", "../domain/safe-target", "./bounded-read")).toEqual([]);
    expect(from("src/outbound/request.ts", "../lti/verify")).toHaveLength(1);
    expect(from("src/lib/sealing.ts", "../events/signature")).toHaveLength(1);
  });

  it("keeps interchange off domain/jobs: the list of formats is interchange's own", () => {
    expect(from("src/interchange/formats/qti/read.ts", "../../../domain/jobs")).toEqual([
      "src/interchange/formats/qti/read.ts → src/domain/jobs: interchange may not import domain/jobs: the formats are interchange's own (formats/index.ts)",
    ]);
    expect(from("src/interchange/types.ts", "../domain/jobs")).toHaveLength(1);
    expect(from("src/interchange/check.ts", "../domain/question-types", "../lib/text")).toEqual([]);
    expect(from("src/jobs/jobs.ts", "../domain/jobs", "../interchange")).toEqual([]);
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
