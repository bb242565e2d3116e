/**
 * Which URLs the service may send a request to: webhook targets, LTI platforms' JWKS, token and
 * scores URLs, and every later outbound call (src/outbound/request.ts judges each one again when
 * it is used). The worker fetches whatever URL it is given, so a careless target turns a request
 * into server-side request forgery (SSRF): requests to loopback, private networks, cloud metadata
 * services or other internal hosts, made with our identity.
 *
 * A URL is judged after WHATWG parsing (`new URL`), never as the string the client sent: the
 * parser normalises IPv4 in any notation (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) to a
 * dotted quad and IPv6 to its canonical compressed form (`[::ffff:127.0.0.1]` becomes
 * `[::ffff:7f00:1]`), so every spelling of an address is judged as the address it is.
 *
 * Under the "public" policy a target must:
 * - use https, and carry no user name, password or fragment, and be at most 2048 characters;
 * - use port 443 or one from 1024 to 65535 (below 1024 are the well-known services: SMTP, SSH, …);
 * - not name localhost or a special-use name (`.localhost`, `.local`, `.internal`, `.home.arpa`,
 *   `.test`, `.invalid`, `.example`), case-insensitively and with a trailing dot tolerated, nor a
 *   single-label name (`https://intranet/`, resolved against the network's own search domains);
 * - not be an IP literal that is not globally reachable. IPv4: every range of IANA's IPv4
 *   Special-Purpose Address Registry whose "Globally Reachable" is not True, plus multicast and
 *   the reserved 240/4. IPv6: only global unicast (2000::/3) is accepted, less the registry's
 *   ranges that are not globally reachable in it (2001::/23 with Teredo 2001::/32, 2001:db8::/32,
 *   6to4 2002::/16, 3fff::/20); outside 2000::/3 only the NAT64 well-known prefix 64:ff9b::/96,
 *   judged by the IPv4 address it embeds. So IPv4-mapped (::ffff:0:0/96), IPv4-compatible,
 *   64:ff9b:1::/48, 100::/64, 5f00::/16, unique-local, site-local (fec0::/10), link-local,
 *   multicast and unassigned addresses are all refused. "Not True" counts N/A (6to4, Teredo) as
 *   not reachable, and the few globally reachable anycast addresses inside 192.0.0.0/24 and
 *   2001::/23 (PCP, TURN, AMT, AS112) are refused with their ranges: no webhook lives there.
 * Any other host name is accepted: the worker cannot resolve DNS, so a name is judged as a name.
 *
 * The "allow-loopback" policy (local development and tests) accepts all of that, plus http or
 * https to exactly `127.0.0.1`, `[::1]` or `localhost`, and nothing else on loopback.
 */

export type TargetPolicy = "public" | "allow-loopback";

/** The longest target URL, in characters, as sent and as serialised after parsing. */
const MAX_TARGET_URL_LENGTH = 2048;

/**
 * Why a URL is refused, as the rule each reason states: worded for what the URL is for ("Webhook
 * URLs must use https.", "URLs must use https.") by refusalText, never by rewriting another text.
 */
const RULES = {
  invalid: null,
  tooLong: `be at most ${MAX_TARGET_URL_LENGTH} characters`,
  https: "use https",
  credentials: "not contain a user name or password",
  fragment: "not contain a fragment",
  address: "not point to a private, loopback, link-local or other non-public address",
  name: "not name localhost or an internal host",
  singleLabel: "name a host by its full domain name, not a single label",
  port: "use port 443 or a port from 1024 to 65535",
} as const;

export type TargetRefusal = keyof typeof RULES;
export type TargetVerdict = { ok: true; url: URL } | { ok: false; refusal: TargetRefusal };

/** A refusal in words, for URLs called `subject` ("Webhook URLs", "URLs"). */
export function refusalText(refusal: TargetRefusal, subject: string): string {
  const rule = RULES[refusal];
  return rule === null ? "Not a valid absolute URL." : `${subject} must ${rule}.`;
}

/** Ports below this are well-known services (SMTP, SSH, …), refused but for https's own 443. */
const FIRST_UNPRIVILEGED_PORT = 1024;

/** The hosts (as `URL.hostname` gives them) that "allow-loopback" accepts over http or https. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Special-use names (RFC 6761, 6762, 8375, and `.internal`): each, and every name under it, is refused. */
const SPECIAL_NAMES = ["localhost", "local", "internal", "home.arpa", "test", "invalid", "example"] as const;

/**
 * IPv4 ranges that are not globally reachable, as [first address as a dotted quad, prefix length]:
 * IANA's IPv4 Special-Purpose Address Registry (entries whose "Globally Reachable" is not True),
 * multicast and the reserved block.
 */
const NON_PUBLIC_IPV4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, including cloud metadata services
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments (DS-Lite, NAT64 discovery, …)
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated; N/A)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the limited broadcast 255.255.255.255
];

/** Judges a target URL: `{ ok: true, url }` (store `url.href`) or `{ ok: false, refusal }`. */
export function judgeTarget(input: string, policy: TargetPolicy): TargetVerdict {
  if (input.length > MAX_TARGET_URL_LENGTH) return refuse("tooLong");
  const url = parseUrl(input);
  if (url === undefined) return refuse("invalid");
  if (url.href.length > MAX_TARGET_URL_LENGTH) return refuse("tooLong");
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse("https");
  if (url.username !== "" || url.password !== "") return refuse("credentials");
  // The serialisation keeps even an empty fragment ("…/#"); "#" appears nowhere else in it.
  if (url.href.includes("#")) return refuse("fragment");
  if (policy === "allow-loopback" && LOOPBACK_HOSTS.has(url.hostname)) return { ok: true, url };
  const hostProblem = publicHostProblem(url.hostname);
  if (hostProblem !== undefined) return refuse(hostProblem);
  if (url.protocol !== "https:") return refuse("https");
  // The parser leaves the port empty when it is the scheme's default (443).
  if (url.port !== "" && Number(url.port) < FIRST_UNPRIVILEGED_PORT) return refuse("port");
  return { ok: true, url };
}

/** Judges a webhook endpoint's URL, its refusal worded for webhooks: `{ ok: false, reason }`. */
export function judgeWebhookUrl(input: string, policy: TargetPolicy): { ok: true; url: URL } | { ok: false; reason: string } {
  const verdict = judgeTarget(input, policy);
  return verdict.ok ? verdict : { ok: false, reason: refusalText(verdict.refusal, "Webhook URLs") };
}

function refuse(refusal: TargetRefusal): TargetVerdict {
  return { ok: false, refusal };
}

/** The URL `input` names, or undefined when it is not a valid absolute URL. */
function parseUrl(input: string): URL | undefined {
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

/** Why a parsed http(s) hostname is not a public host, or undefined when it is one. */
function publicHostProblem(hostname: string): TargetRefusal | undefined {
  if (hostname.startsWith("[")) {
    const groups = parseIpv6(hostname.slice(1, -1));
    // The parser already accepted it, so undefined here means a form we do not know: fail closed.
    return groups === undefined || !isPublicIpv6(groups) ? "address" : undefined;
  }
  const ipv4 = parseIpv4(hostname);
  if (ipv4 !== undefined) return isPublicIpv4(ipv4) ? undefined : "address";
  if (isSpecialName(hostname)) return "name";
  return hostname.replace(/\.+$/, "").includes(".") ? undefined : "singleLabel";
}

/** Whether a host name is, or is under, a special-use name; case-insensitive, trailing dots ignored. */
function isSpecialName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  return SPECIAL_NAMES.some((special) => name === special || name.endsWith(`.${special}`));
}

/**
 * A dotted-quad IPv4 address as an unsigned 32-bit number, or undefined for anything else. The
 * WHATWG parser turns every host that ends in a number into a dotted quad (or refuses it), so only
 * this form needs to be read.
 */
function parseIpv4(text: string): number | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (match === null) return undefined;
  let value = 0;
  for (const part of match.slice(1)) {
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** Whether an IPv4 address (as an unsigned 32-bit number) lies outside every non-public range. */
function isPublicIpv4(address: number): boolean {
  return NON_PUBLIC_IPV4.every(([first, prefix]) => !inIpv4Range(address, parseIpv4(first) ?? 0, prefix));
}

function inIpv4Range(address: number, first: number, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return address >= first && address < first + size;
}

/**
 * An IPv6 address (without brackets) as its 8 16-bit groups, or undefined when malformed. Reads
 * hex groups with at most one "::", and a trailing dotted-quad IPv4 as the last two groups.
 */
function parseIpv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = parseIpv6Groups(halves[0] ?? "");
  const tail = halves.length === 2 ? parseIpv6Groups(halves[1] ?? "") : [];
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** The groups of one side of a "::" (possibly empty), or undefined when malformed. */
function parseIpv6Groups(text: string): number[] | undefined {
  if (text === "") return [];
  const groups: number[] = [];
  const parts = text.split(":");
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && part.includes(".")) {
      const ipv4 = parseIpv4(part);
      if (ipv4 === undefined) return undefined;
      groups.push(ipv4 >>> 16, ipv4 & 0xffff);
    } else {
      if (!/^[0-9a-f]{1,4}$/i.test(part)) return undefined;
      groups.push(Number.parseInt(part, 16));
    }
  }
  return groups;
}

/**
 * Whether an IPv6 address (8 groups) is globally reachable: global unicast less the special-purpose
 * ranges inside it, or a NAT64 address of a public IPv4 address. Everything else is refused.
 */
function isPublicIpv6(groups: readonly number[]): boolean {
  const g = (index: number) => groups[index] ?? 0;
  // 64:ff9b::/96, the NAT64 well-known prefix (globally reachable): judged by the IPv4 address it embeds.
  if (g(0) === 0x64 && g(1) === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return isPublicIpv4(g(6) * 0x10000 + g(7));
  if ((g(0) & 0xe000) !== 0x2000) return false; // outside 2000::/3, global unicast
  if (g(0) === 0x2001 && g(1) < 0x0200) return false; // 2001::/23, IETF protocol assignments (Teredo 2001::/32 in it)
  if (g(0) === 0x2001 && g(1) === 0x0db8) return false; // 2001:db8::/32, documentation
  if (g(0) === 0x2002) return false; // 2002::/16, 6to4 (N/A)
  if (g(0) === 0x3fff && g(1) < 0x1000) return false; // 3fff::/20, documentation
  return true;
}
