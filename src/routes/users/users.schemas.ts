import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { pageQuery } from "../../lib/pagination";

export const ROLES = ["student", "instructor", "admin"] as const;

const name = z.string().trim().min(1).max(200).openapi({ example: "Ada Lovelace" });
// RFC 5321 caps an address at 254 characters.
const email = z.string().trim().max(254).pipe(z.email()).openapi({ format: "email", example: "ada@example.com" });
const role = z.enum(ROLES).openapi({ example: "student" });

export const UserCreate = z.strictObject({ name, email, role: role.default("student") }).openapi("UserCreate");
export const UserPatch = z
  .strictObject({ name: name.optional(), email: email.optional(), role: role.optional() })
  .openapi("UserPatch");

export const UserListQuery = z.strictObject({
  ...pageQuery("user"),
  role: role.optional(),
  email: z.string().trim().max(254).optional().openapi({ description: "Exact e-mail, matched case-insensitively." }),
});

export const User = z
  .object({
    id: idSchema("user"),
    name: z.string(),
    email: z.string(),
    role,
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("User");
export type User = z.infer<typeof User>;
