import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { singleLineText } from "../../lib/text";
import { ScopeList } from "../api-keys/api-keys.schemas";

export const OAuthClientCreate = z
  .strictObject({
    name: singleLineText(200).openapi({ example: "analytics exporter" }),
    scopes: ScopeList,
  })
  .openapi("OAuthClientCreate", { example: { name: "analytics exporter", scopes: ["quizzes:read", "analytics:read"] } });

export const OAuthClient = z
  .object({
    id: idSchema("oauthClient"),
    client_id: idSchema("oauthClient").openapi({ description: "Same as id: the OAuth client_id." }),
    name: z.string(),
    scopes: z.array(z.string()).openapi({ description: "The most a token of this client may carry." }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    secret_rotated_at: z.string().datetime().nullable(),
  })
  .openapi("OAuthClient");

export const OAuthClientWithSecret = OAuthClient.extend({
  client_secret: z.string().openapi({ description: "Shown only in this response: store it now." }),
}).openapi("OAuthClientWithSecret");
