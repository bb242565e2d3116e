/**
 * Placeholders that generated requests carry until they are sent. Generation is pure (fast-check,
 * fixed seed), but the ids of real resources exist only at run time: a `Ref` names the kind of
 * value it stands for and a fraction `pick` in [0, 1) that chooses one of the values known when
 * the request is sent. A `Literal` is raw JSON text spliced into a serialised body (numbers JSON
 * cannot write from JavaScript, such as 1e999 or -0, and deep nesting).
 */
export type RefKind =
  | "quiz"
  | "question"
  | "user"
  | "submission"
  | "apiKey"
  | "oauthClient"
  /** The secret of the client named beside it (client_id), or of a known client. */
  | "clientSecret"
  /** `Basic base64(client_id:client_secret)` of a known client. */
  | "basicAuth"
  | "accessToken"
  | "refreshToken"
  /** An access or a refresh token. */
  | "token"
  /** A next_cursor seen on this operation's list. */
  | "cursor"
  /** A response of the right type for the question named beside it (question_id). */
  | "response";

export class Ref {
  constructor(
    readonly kind: RefKind,
    readonly pick: number,
    /** For DELETE: never one of the resources seeded for the run, so the others stay reachable. */
    readonly disposable = false,
  ) {}
  toJSON() {
    return `<${this.kind}${this.disposable ? " disposable" : ""}>`;
  }
}

export class Literal {
  constructor(
    readonly text: string,
    readonly label = text.length > 40 ? `${text.slice(0, 20)}…(${text.length} chars)` : text,
  ) {}
  toJSON() {
    return `<literal ${this.label}>`;
  }
}

/** The resource kinds of the API's ids, by prefix (docs/api.md). */
const ID_KINDS = {
  quiz: "quiz",
  qst: "question",
  user: "user",
  sub: "submission",
  key: "apiKey",
  cli: "oauthClient",
} as const satisfies Record<string, RefKind>;

/** The id kind a string schema's pattern describes (`^quiz_[0-7]…$`), if any. */
export function idKindOfPattern(pattern: string | undefined): RefKind | undefined {
  const prefix = /^\^([a-z]+)_\[0-7\]/.exec(pattern ?? "")?.[1];
  return prefix && prefix in ID_KINDS ? ID_KINDS[prefix as keyof typeof ID_KINDS] : undefined;
}

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** A well-formed id of a kind that names no resource (deterministic from `pick`). */
export function absentId(prefix: string, pick: number): string {
  let x = Math.floor(pick * 2 ** 40) + 1;
  let body = "0";
  for (let i = 0; i < 25; i++) {
    body += CROCKFORD[x % 32];
    x = Math.floor(x / 32) + i * 7919;
  }
  return `${prefix}_${body}`;
}
