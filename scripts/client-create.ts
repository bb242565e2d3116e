// npm run client:create -- --name NAME --scopes "quizzes:read analytics:read" [--local|--remote]
// Prints { "client_id", "client_secret", "scopes" }: the only time the secret is shown.
import { newClient } from "../src/auth/oauth-clients";
import { parseCredentialArgs } from "./cli-args";
import { executeD1, literal } from "./d1";

const args = parseCredentialArgs(
  process.argv.slice(2),
  'npm run client:create -- --name NAME --scopes "quizzes:read" [--local|--remote]',
);
const { secret, row } = await newClient({ name: args.name, scopes: args.scopes });
executeD1(
  `INSERT INTO oauth_clients (id, name, secret_hash, scopes, created_at, updated_at) VALUES (${[
    row.id,
    row.name,
    row.secretHash,
    JSON.stringify(row.scopes),
    row.createdAt,
    row.updatedAt,
  ]
    .map(literal)
    .join(", ")})`,
  args.target,
);
process.stdout.write(`${JSON.stringify({ client_id: row.id, client_secret: secret, scopes: row.scopes }, null, 2)}\n`);
