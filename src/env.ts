import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { WakeUps } from "./db/after-commit";
import type { LearnerGrant } from "./sessions/learner-sessions";
import type { ReportGrant } from "./sessions/report-sessions";

/** drizzle over D1; `$client` is the D1 binding itself, for batches of raw statements. */
export type Database = DrizzleD1Database & { $client: D1Database };

/** The authenticated caller of a `/v1` request. */
export interface Credential {
  type: "api_key" | "access_token" | "learner_session" | "report_session";
  /** key_… for API keys; the OAuth client's cli_… for access tokens; lse_…/rse_… for session tokens. */
  id: string;
  scopes: string[];
  expires_at: string | null;
  /** The OAuth grant (token family) an access token belongs to; absent for API keys. */
  grant_id?: string;
  /** A learner token's grant (§17): one user at one quiz. */
  learner?: LearnerGrant;
  /** A report token's grant (§17): the quizzes it reads. */
  report?: ReportGrant;
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
