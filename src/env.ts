import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { WakeUps } from "./db/after-commit";

/** drizzle over D1; `$client` is the D1 binding itself, for batches of raw statements. */
export type Database = DrizzleD1Database & { $client: D1Database };

/** The authenticated caller of a `/v1` request. */
export interface Credential {
  type: "api_key" | "access_token";
  /** key_… for API keys; the OAuth client's cli_… for access tokens. */
  id: string;
  scopes: string[];
  expires_at: string | null;
  /** The OAuth grant (token family) an access token belongs to; absent for API keys. */
  grant_id?: string;
}

export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Database;
    /** What the request's batches wake (events, ledger rows, jobs): sent after the response. */
    wakeUps: WakeUps;
    requestId: string;
    credential?: Credential;
    /** Set once the route's own authorization passed: only then does the answer carry a D1 bookmark. */
    authorized?: true;
  };
}
