import { z } from "@hono/zod-openapi";
import { ROLES } from "../../domain/users";
import { idSchema } from "../../lib/ids";
import { pageQuery } from "../../lib/pagination";
import { singleLineText, textProblem } from "../../lib/text";

const name = singleLineText(200).openapi({ example: "Ada Lovelace" });
// RFC 5321 caps an address at 254 characters.
const email = z.string().trim().max(254).pipe(z.email()).openapi({ format: "email", example: "ada@example.com" });
const role = z.enum(ROLES).openapi({ example: "student" });

export const UserCreate = z
  .strictObject({
    name,
    email: email.nullable().default(null).openapi({
      description:
        "Omitted or null: a user without an address (a pupil who has none). Unique among users that have one, compared case-insensitively.",
    }),
    role: role.default("student"),
  })
  .openapi("UserCreate", { example: { name: "Ada Lovelace", email: "ada@example.com", role: "student" } });
export const UserPatch = z
  .strictObject({
    name: name.optional(),
    email: email
      .nullable()
      .optional()
      .openapi({ description: "null removes the user's address (free for another user from then on)." }),
    role: role.optional(),
  })
  .openapi("UserPatch", { example: { name: "Ada King", role: "instructor" } });

export const UserListQuery = z.strictObject({
  ...pageQuery("user"),
  role: role.optional(),
  // A query string cannot carry a lone surrogate (percent-decoding never makes one; a sequence
  // that does not decode stays as its literal %XX text), but it can carry %00 and the like: a
  // filter that no stored e-mail can match is refused as the body field would be, not looked up.
  email: z
    .string()
    .trim()
    .max(254)
    .superRefine((s, ctx) => {
      const problem = textProblem(s, false);
      if (problem) ctx.addIssue({ code: "custom", message: problem, input: s });
    })
    .optional()
    .openapi({ description: "Exact e-mail, matched case-insensitively." }),
});

/** The user the examples register (UserCreate's example, as the API answers it). */
export const USER_EXAMPLE = {
  id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  name: "Ada Lovelace",
  email: "ada@example.com",
  role: "student" as const,
  created_at: "2026-11-20T08:00:00.000Z",
  updated_at: "2026-11-20T08:00:00.000Z",
};

export const User = z
  .object({
    id: idSchema("user"),
    name: z.string(),
    email: z.string().nullable().openapi({
      description:
        'null for a user without an address: created without one, or by an LTI launch without an e-mail claim (never an invented address); "" once the user is deleted. Unique among users that have one, compared case-insensitively.',
    }),
    role,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("User", { example: USER_EXAMPLE });
export type User = z.infer<typeof User>;
