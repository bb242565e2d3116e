import { describe, expect, it } from "vitest";
import { judgeTarget, judgeWebhookUrl, refusalText } from "../../src/domain/safe-target";

const HTTPS = "Webhook URLs must use https.";
const CREDENTIALS = "Webhook URLs must not contain a user name or password.";
const ADDRESS = "Webhook URLs must not point to a private, loopback, link-local or other non-public address.";
const SINGLE_LABEL = "Webhook URLs must name a host by its full domain name, not a single label.";
const PORT = "Webhook URLs must use port 443 or a port from 1024 to 65535.";
const NAME = "Webhook URLs must not name localhost or an internal host.";
const INVALID = "Not a valid absolute URL.";
const FRAGMENT = "Webhook URLs must not contain a fragment.";
const TOO_LONG = "Webhook URLs must be at most 2048 characters.";

/** Refused under "public": [url, reason]. */
const REFUSED_PUBLIC: readonly (readonly [string, string])[] = [
  // Scheme, credentials, fragment, syntax, length.
  ["http://example.com", HTTPS],
  ["http://example.com/hook", HTTPS],
  ["ftp://x", HTTPS],
  ["ws://example.com/", HTTPS],
  ["javascript:alert(1)", HTTPS],
  ["data:text/plain,hi", HTTPS],
  ["https://user:pw@example.com", CREDENTIALS],
  ["https://user@example.com/", CREDENTIALS],
  ["https://:pw@example.com/", CREDENTIALS],
  ["https://example.com/hook#frag", FRAGMENT],
  ["https://example.com/#", FRAGMENT],
  ["not a url", INVALID],
  ["", INVALID],
  ["/relative/path", INVALID],
  ["https://", INVALID],
  ["https://exa mple.com/", INVALID],
  ["https://1.2.3.4.5/", INVALID],
  ["https://256.0.0.1/", INVALID],
  [`https://example.com/${"a".repeat(3000)}`, TOO_LONG],
  [`https://example.com/${" ".repeat(700)}x`, TOO_LONG], // 721 characters sent, 2121 once spaces are %20
  // Localhost and special-use names.
  ["https://localhost", NAME],
  ["https://localhost/hook", NAME],
  ["https://LOCALHOST.", NAME],
  ["https://localhost:8443/", NAME],
  ["https://a.localhost", NAME],
  ["https://A.B.LocalHost./", NAME],
  ["https://%6cocalhost/", NAME],
  ["https://ｌｏｃａｌｈｏｓｔ/", NAME],
  ["https://printer.local/", NAME],
  ["https://metadata.google.internal/", NAME],
  ["https://router.home.arpa/", NAME],
  ["https://hooks.test/", NAME],
  ["https://x.invalid/", NAME],
  ["https://www.example/", NAME],
  ["https://example/", NAME],
  // IPv4, one address per non-public range (first, inside, last where it matters).
  ["https://0.0.0.0", ADDRESS],
  ["https://0.1.2.3/", ADDRESS],
  ["https://10.0.0.1/", ADDRESS],
  ["https://10.255.255.255/", ADDRESS],
  ["https://100.64.0.1/", ADDRESS],
  ["https://100.127.255.255/", ADDRESS],
  ["https://127.0.0.1/", ADDRESS],
  ["https://127.255.255.254/", ADDRESS],
  ["https://169.254.169.254/latest/meta-data/", ADDRESS],
  ["https://172.16.0.1/", ADDRESS],
  ["https://172.31.255.255/", ADDRESS],
  ["https://192.0.0.1/", ADDRESS],
  ["https://192.0.0.9/", ADDRESS], // PCP anycast: refused with its /24
  ["https://192.0.0.255/", ADDRESS],
  ["https://192.0.2.1/", ADDRESS],
  ["https://192.88.99.0/", ADDRESS], // 6to4 relay anycast
  ["https://192.88.99.255/", ADDRESS],
  ["https://192.168.1.1/", ADDRESS],
  ["https://198.18.0.1/", ADDRESS],
  ["https://198.19.255.255/", ADDRESS],
  ["https://198.51.100.7/", ADDRESS],
  ["https://203.0.113.9/", ADDRESS],
  ["https://224.0.0.1/", ADDRESS],
  ["https://239.255.255.250/", ADDRESS],
  ["https://240.0.0.1/", ADDRESS],
  ["https://254.255.255.255/", ADDRESS],
  ["https://255.255.255.255/", ADDRESS],
  // IPv4 in other notations: the parser turns each into a dotted quad.
  ["https://2130706433/", ADDRESS], // decimal 127.0.0.1
  ["http://2130706433/", ADDRESS],
  ["https://0x7f.1/", ADDRESS],
  ["https://0x7f000001/", ADDRESS],
  ["https://0177.0.0.1/", ADDRESS],
  ["https://017700000001/", ADDRESS],
  ["https://127.1/", ADDRESS],
  ["https://127.0.1/", ADDRESS],
  ["https://10.1/", ADDRESS],
  ["https://0/", ADDRESS],
  ["https://127.0.0.1./", ADDRESS],
  ["https://127。0。0。1/", ADDRESS],
  ["https://0xa9.0xfe.0xa9.0xfe/", ADDRESS], // 169.254.169.254
  ["https://3232235777/", ADDRESS], // 192.168.1.1
  // IPv6: everything outside global unicast (2000::/3) but public NAT64.
  ["https://[::1]", ADDRESS],
  ["https://[::1]:8443/", ADDRESS],
  ["https://[0:0:0:0:0:0:0:1]/", ADDRESS],
  ["https://[::]/", ADDRESS],
  ["https://[::7f00:1]/", ADDRESS], // IPv4-compatible (deprecated)
  ["https://[::808:808]/", ADDRESS], // IPv4-compatible, of a public address
  ["https://[::ffff:127.0.0.1]/", ADDRESS], // ::ffff:0:0/96, IPv4-mapped: refused whatever it maps
  ["https://[::ffff:7f00:1]/", ADDRESS],
  ["https://[::ffff:a9fe:a9fe]/", ADDRESS],
  ["https://[0:0:0:0:0:ffff:10.0.0.1]/", ADDRESS],
  ["https://[::ffff:0.0.0.0]/", ADDRESS],
  ["https://[::ffff:5db8:d70e]/", ADDRESS], // mapped 93.184.215.14, public
  ["https://[::ffff:8.8.8.8]/", ADDRESS],
  ["https://[::ffff:ffff:ffff]/", ADDRESS],
  ["https://[64:ff9b::127.0.0.1]/", ADDRESS], // NAT64 of a non-public address
  ["https://[64:ff9b::a00:1]/", ADDRESS],
  ["https://[64:ff9b:1::]/", ADDRESS], // 64:ff9b:1::/48, local-use translation
  ["https://[64:ff9b:1::808:808]/", ADDRESS],
  ["https://[64:ff9b:1:ffff:ffff:ffff:ffff:ffff]/", ADDRESS],
  ["https://[100::]/", ADDRESS], // 100::/64, discard-only
  ["https://[100::ffff:ffff:ffff:ffff]/", ADDRESS],
  ["https://[100:0:0:1::1]/", ADDRESS], // 100:0:0:1::/64, dummy prefix
  ["https://[1::1]/", ADDRESS], // unassigned
  ["https://[1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/", ADDRESS], // just below 2000::/3
  ["https://[4000::1]/", ADDRESS], // just above it
  ["https://[5f00::1]/", ADDRESS], // 5f00::/16, segment routing SIDs
  ["https://[fc00::1]/", ADDRESS],
  ["https://[fd12:3456:789a::1]/", ADDRESS],
  ["https://[fe80::1]/", ADDRESS],
  ["https://[febf:ffff::1]/", ADDRESS],
  ["https://[fec0::1]/", ADDRESS], // fec0::/10, site-local (deprecated)
  ["https://[feff:ffff::1]/", ADDRESS],
  ["https://[ff02::1]/", ADDRESS],
  ["https://[ff0e::101]/", ADDRESS],
  // IPv6 inside 2000::/3 that is not globally reachable.
  ["https://[2001::]/", ADDRESS], // 2001::/32, Teredo
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", ADDRESS],
  ["https://[2001:0:ffff:ffff:ffff:ffff:ffff:ffff]/", ADDRESS],
  ["https://[2001:1::1]/", ADDRESS], // 2001::/23, IETF protocol assignments (PCP anycast: refused with its range)
  ["https://[2001:2::1]/", ADDRESS], // benchmarking
  ["https://[2001:10::1]/", ADDRESS], // ORCHID
  ["https://[2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff]/", ADDRESS], // last of 2001::/23
  ["https://[2001:db8::1]/", ADDRESS],
  ["https://[2001:DB8:ffff::]/", ADDRESS],
  ["https://[2002:7f00:1::]/", ADDRESS], // 2002::/16, 6to4: refused whatever it embeds
  ["https://[2002:c0a8:101::1]/", ADDRESS],
  ["https://[2002:808:808::1]/", ADDRESS],
  ["https://[3fff::1]/", ADDRESS], // 3fff::/20, documentation
  ["https://[3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff]/", ADDRESS],
  // Single-label names: resolved against the network's own search domains.
  ["https://intranet/", SINGLE_LABEL],
  ["https://intranet./", SINGLE_LABEL],
  ["https://mylocal/hook", SINGLE_LABEL],
  ["https://com/", SINGLE_LABEL],
  ["https://COM./", SINGLE_LABEL],
  ["https://xn--bcher-kva/", SINGLE_LABEL],
  // Ports: 443 or 1024–65535.
  ["https://example.com:1/", PORT],
  ["https://example.com:22/", PORT],
  ["https://example.com:25/", PORT],
  ["https://example.com:80/", PORT],
  ["https://example.com:1023/", PORT],
  ["https://example.com:0/", PORT],
  ["https://93.184.215.14:444/", PORT],
  ["https://[2606:4700::1111]:853/", PORT],
];

/** Accepted under "public", and so under "allow-loopback" too: [url, href as stored]. */
const ACCEPTED_PUBLIC: readonly (readonly [string, string])[] = [
  ["https://example.com/hook", "https://example.com/hook"],
  ["https://93.184.215.14/x", "https://93.184.215.14/x"],
  ["https://[2606:4700::1111]/", "https://[2606:4700::1111]/"],
  ["https://hooks.example.org:8443/a?b=c", "https://hooks.example.org:8443/a?b=c"],
  ["HTTPS://Hooks.Example.COM/Path", "https://hooks.example.com/Path"],
  ["https://example.com./hook", "https://example.com./hook"],
  ["https://1.1.1.1/", "https://1.1.1.1/"],
  ["https://8.8.8.8:65535/", "https://8.8.8.8:65535/"],
  // Ports: 443 (the default, dropped by the parser) and 1024–65535.
  ["https://example.com:443/hook", "https://example.com/hook"],
  ["https://example.com:1024/", "https://example.com:1024/"],
  ["https://example.com:65535/", "https://example.com:65535/"],
  // IPv4 just outside the refused ranges.
  ["https://100.63.255.255/", "https://100.63.255.255/"], // just below 100.64/10
  ["https://100.128.0.0/", "https://100.128.0.0/"], // just above it
  ["https://172.15.255.255/", "https://172.15.255.255/"],
  ["https://172.32.0.0/", "https://172.32.0.0/"],
  ["https://192.0.1.1/", "https://192.0.1.1/"],
  ["https://192.0.3.0/", "https://192.0.3.0/"],
  ["https://192.88.98.255/", "https://192.88.98.255/"],
  ["https://192.88.100.0/", "https://192.88.100.0/"],
  ["https://192.31.196.1/", "https://192.31.196.1/"], // AS112: globally reachable
  ["https://198.17.255.255/", "https://198.17.255.255/"],
  ["https://198.20.0.0/", "https://198.20.0.0/"],
  ["https://223.255.255.255/", "https://223.255.255.255/"],
  ["https://16843009/", "https://1.1.1.1/"], // decimal 1.1.1.1 is public too
  // IPv6 global unicast, and NAT64 of a public address.
  ["https://[64:ff9b::808:808]/", "https://[64:ff9b::808:808]/"], // 64:ff9b::/96 is globally reachable
  ["https://[64:ff9b::5db8:d70e]/", "https://[64:ff9b::5db8:d70e]/"],
  ["https://[2000::1]/", "https://[2000::1]/"], // first of 2000::/3
  ["https://[2001:200::1]/", "https://[2001:200::1]/"], // just above 2001::/23
  ["https://[2001:4860:4860::8888]/", "https://[2001:4860:4860::8888]/"],
  ["https://[2001:db9::1]/", "https://[2001:db9::1]/"],
  ["https://[2003::1]/", "https://[2003::1]/"],
  ["https://[2620:4f:8000::1]/", "https://[2620:4f:8000::1]/"], // AS112: globally reachable
  ["https://[3fff:1000::1]/", "https://[3fff:1000::1]/"], // just above 3fff::/20
  ["https://[3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/", "https://[3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]/"], // last of 2000::/3
  // Names.
  ["https://localhost.example.com/", "https://localhost.example.com/"],
  ["https://my.local.example.org/hook", "https://my.local.example.org/hook"],
  ["https://test.example.org/", "https://test.example.org/"],
  ["https://xn--bcher-kva.de/", "https://xn--bcher-kva.de/"],
  ["https://a.b/", "https://a.b/"],
  [`https://example.com/${"a".repeat(2028)}`, `https://example.com/${"a".repeat(2028)}`], // exactly 2048
];

/** Accepted only under "allow-loopback". */
const ACCEPTED_LOOPBACK_ONLY: readonly string[] = [
  "http://127.0.0.1:9999/x",
  "http://localhost:3000",
  "http://[::1]:8080/",
  "https://127.0.0.1/",
  "https://localhost/hook",
  "https://[::1]/",
  "http://LOCALHOST/",
  "http://2130706433/", // the parser makes it 127.0.0.1
];

/** Refused under "allow-loopback" as well: [url, reason]. */
const REFUSED_LOOPBACK: readonly (readonly [string, string])[] = [
  ["http://127.0.0.2/", ADDRESS],
  ["http://10.0.0.1/", ADDRESS],
  ["http://169.254.169.254/", ADDRESS],
  ["http://[::ffff:127.0.0.1]/", ADDRESS],
  ["http://[0::2]/", ADDRESS],
  ["http://foo.localhost/", NAME],
  ["http://localhost./", NAME],
  ["http://user@127.0.0.1/", CREDENTIALS],
  ["http://user:pw@localhost:3000/", CREDENTIALS],
  ["http://example.com/", HTTPS],
  ["ftp://127.0.0.1/", HTTPS],
  ["http://localhost:3000/#x", FRAGMENT],
  ["not a url", INVALID],
];

/** The parsed hostname of `input`, or "" when it does not parse. */
function hostnameOf(input: string): string {
  try {
    return new URL(input).hostname;
  } catch {
    return "";
  }
}

describe("judgeWebhookUrl, public", () => {
  it.each(REFUSED_PUBLIC)("refuses %s", (input, reason) => {
    expect(judgeWebhookUrl(input, "public")).toEqual({ ok: false, reason });
  });

  it.each(ACCEPTED_PUBLIC)("accepts %s", (input, href) => {
    const verdict = judgeWebhookUrl(input, "public");
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.url.href).toBe(href);
  });

  it.each(ACCEPTED_LOOPBACK_ONLY)("refuses %s", (input) => {
    expect(judgeWebhookUrl(input, "public").ok).toBe(false);
  });
});

describe("judgeWebhookUrl, allow-loopback", () => {
  it.each(ACCEPTED_LOOPBACK_ONLY)("accepts %s", (input) => {
    const verdict = judgeWebhookUrl(input, "allow-loopback");
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.url.href).toBe(new URL(input).href);
  });

  it.each(ACCEPTED_PUBLIC)("still accepts %s", (input, href) => {
    const verdict = judgeWebhookUrl(input, "allow-loopback");
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.url.href).toBe(href);
  });

  it.each(REFUSED_LOOPBACK)("refuses %s", (input, reason) => {
    expect(judgeWebhookUrl(input, "allow-loopback")).toEqual({ ok: false, reason });
  });

  it("refuses everything public refuses, except the exact loopback hosts", () => {
    for (const [input] of REFUSED_PUBLIC) {
      const verdict = judgeWebhookUrl(input, "allow-loopback");
      const exempt = ["127.0.0.1", "[::1]", "localhost"].includes(hostnameOf(input));
      if (!exempt) expect(verdict, input).toEqual(judgeWebhookUrl(input, "public"));
    }
  });
});

describe("judgeTarget: one verdict, worded for what the URL is for", () => {
  it("words every refusal for any subject from the same rule: webhooks' and LTI's texts differ only in it", () => {
    for (const [input, reason] of [...REFUSED_PUBLIC, ...REFUSED_LOOPBACK]) {
      const verdict = judgeTarget(input, REFUSED_LOOPBACK.some(([i]) => i === input) ? "allow-loopback" : "public");
      expect(verdict.ok, input).toBe(false);
      if (verdict.ok) continue;
      expect(refusalText(verdict.refusal, "Webhook URLs")).toBe(reason);
      const forLti = refusalText(verdict.refusal, "URLs");
      expect(forLti).toBe(verdict.refusal === "invalid" ? reason : reason.replace("Webhook URLs", "URLs"));
    }
  });
});
