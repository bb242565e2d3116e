// npm run key:create -- --name NAME --scopes "admin" [--local|--remote]
// Prints { "id", "key", "scopes" }: the only time the key is shown.
import { newApiKey } from "../src/auth/api-keys";
import { parseCredentialArgs } from "./cli-args";
import { executeD1, literal } from "./d1";

/** Makes an API key in the local or deployed D1 (`persistTo`: a local database kept outside .wrangler/state). */
export async function createKey(name: string, scopes: string[], target: "local" | "remote", persistTo?: string) {
  const { key, row } = await newApiKey({ name, scopes, expiresAt: null });
  executeD1(
    `INSERT INTO api_keys (id, name, key_hash, prefix, scopes, created_at) VALUES (${[
      row.id,
      row.name,
      row.keyHash,
      row.prefix,
      JSON.stringify(row.scopes),
      row.createdAt,
    ]
      .map(literal)
      .join(", ")})`,
    target,
    persistTo,
  );
  return { id: row.id, key, scopes: row.scopes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = parseCredentialArgs(
    process.argv.slice(2),
    'npm run key:create -- --name NAME --scopes "admin" [--local|--remote]',
  );
  process.stdout.write(`${JSON.stringify(await createKey(args.name, args.scopes, args.target), null, 2)}\n`);
}
