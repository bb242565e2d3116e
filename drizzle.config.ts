import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/db/schema.ts",
    "./src/db/auth-schema.ts",
    "./src/db/events-schema.ts",
    "./src/db/lti-schema.ts",
    "./src/db/roster-schema.ts",
    "./src/db/assets-schema.ts",
    "./src/db/sessions-schema.ts",
    "./src/db/lti-tool-schema.ts",
  ],
  out: "./drizzle",
});
