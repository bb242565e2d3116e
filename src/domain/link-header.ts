/**
 * The `rel="next"` target of an HTTP Link header (RFC 8288 §3), as NRPS pages a roster with it
 * (Names and Role Provisioning Services 2.0 §2.4.2). One pass over the header, each character
 * read once: no regular expression, so a hostile header costs time in proportion to its length.
 * A link-value that is not `<URI-Reference>` followed by parameters is skipped; a relative
 * reference is resolved against `base`. Undefined when no link is `next`.
 */
export function nextLink(header: string | null | undefined, base: string): string | undefined {
  if (!header) return undefined;
  const end = header.length;
  let i = 0;
  const skipSpace = () => {
    while (i < end && (header[i] === " " || header[i] === "\t")) i++;
  };
  /** Moves past the rest of a link-value: up to and over the next comma that is not inside a quoted string. */
  const skipValue = () => {
    let quoted = false;
    for (; i < end; i++) {
      const ch = header[i];
      if (quoted) {
        if (ch === "\\") i++;
        else if (ch === '"') quoted = false;
      } else if (ch === '"') quoted = true;
      else if (ch === ",") {
        i++;
        return;
      }
    }
  };
  while (i < end) {
    skipSpace();
    if (header[i] === ",") {
      i++;
      continue;
    }
    if (header[i] !== "<") {
      skipValue();
      continue;
    }
    const close = header.indexOf(">", i + 1);
    if (close < 0) return undefined;
    const target = header.slice(i + 1, close).trim();
    i = close + 1;
    let isNext = false;
    // Parameters: ; name [= token | quoted-string]
    for (;;) {
      skipSpace();
      if (header[i] !== ";") break;
      i++;
      skipSpace();
      let name = "";
      while (i < end && !"=;, \t".includes(header[i] as string)) name += header[i++];
      skipSpace();
      let value = "";
      if (header[i] === "=") {
        i++;
        skipSpace();
        if (header[i] === '"') {
          i++;
          while (i < end && header[i] !== '"') {
            if (header[i] === "\\" && i + 1 < end) i++;
            value += header[i++];
          }
          i++;
        } else while (i < end && !";, \t".includes(header[i] as string)) value += header[i++];
      }
      // rel is a space-separated list of relation types, compared case-insensitively (§3.3).
      if (name.toLowerCase() === "rel" && value.toLowerCase().split(" ").includes("next")) isNext = true;
    }
    if (isNext) {
      try {
        return new URL(target, base).href;
      } catch {
        return undefined;
      }
    }
    skipValue();
  }
  return undefined;
}
