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

/** OAuthClientCreate's example as the API answers it, without its secret. */
export const OAUTH_CLIENT_EXAMPLE = {
  id: "cli_01kamz3f7c9n0p8s6e5vwx2y4r",
  client_id: "cli_01kamz3f7c9n0p8s6e5vwx2y4r",
  name: "analytics exporter",
  scopes: ["quizzes:read", "analytics:read"],
  created_at: "2026-11-20T09:00:00.000Z",
  updated_at: "2026-11-20T09:00:00.000Z",
  secret_rotated_at: null,
};

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
  .openapi("OAuthClient", { example: OAUTH_CLIENT_EXAMPLE });

export const OAuthClientWithSecret = OAuthClient.extend({
  client_secret: z.string().openapi({ description: "Shown only in this response: store it now." }),
}).openapi("OAuthClientWithSecret", {
  example: { ...OAUTH_CLIENT_EXAMPLE, client_secret: "qz_cs_0QlU3YC6S8HFhlTzVd6WXKAwI4P06vs7eaRj7pr5UdF" },
});
