import { parseArgs } from "node:util";
import { SCOPES, type Scope } from "../src/lib/scopes";

export interface CredentialArgs {
  name: string;
  scopes: Scope[];
  target: "local" | "remote";
}

/** `--name NAME --scopes "a b" [--local|--remote]`; scopes may be separated by spaces or commas. */
export function parseCredentialArgs(argv: string[], usage: string): CredentialArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      local: { type: "boolean" },
      remote: { type: "boolean" },
    },
  });
  const fail = (why: string): never => {
    process.stderr.write(`${why}\nusage: ${usage}\nscopes: ${SCOPES.join(", ")}\n`);
    process.exit(2);
  };
  const name = values.name?.trim() || fail("--name is required");
  const scopes = (values.scopes ?? "").split(/[\s,]+/).filter(Boolean);
  if (scopes.length === 0) fail("--scopes is required");
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) fail(`unknown scope(s): ${unknown.join(", ")}`);
  if (values.local && values.remote) fail("use --local or --remote, not both");
  return { name, scopes: [...new Set(scopes)] as Scope[], target: values.remote ? "remote" : "local" };
}
