import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "./db/schema";

export type Database = DrizzleD1Database<typeof schema>;

/** The authenticated caller of a `/v1` request. */
export interface Credential {
  type: "api_key" | "access_token";
  /** key_… for API keys; the OAuth client's cli_… for access tokens. */
  id: string;
  scopes: string[];
  expires_at: string | null;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Database;
    requestId: string;
    credential?: Credential;
  };
}
