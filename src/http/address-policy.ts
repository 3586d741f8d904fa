/**
 * Which hosts and addresses Skiff may call on a user's behalf (spec "Errors": webhook URLs that are
 * localhost, private or reserved are rejected in every environment, cluster-internal names never work).
 * Ranges are matched by ipaddr.js; this file only lists them and names them.
 */
import ipaddr from "ipaddr.js";

type IP = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [IP, number];

/** A parsed `SKIFF_OUTBOUND_ALLOW`: address ranges and host names exempted from every check. */
export interface AllowList {
  /** Ranges (a bare address is a /32 or /128). */
  cidrs: Cidr[];
  /** Exact host names, lower case, without trailing dot. */
  names: string[];
  /** `*.example.internal` entries, stored as `.example.internal` (subdomains only). */
  suffixes: string[];
  /** The entries as given, for the start-up warning. */
  entries: string[];
}

const cidr = (text: string): Cidr => ipaddr.parseCIDR(text);

/** Refused IPv4 ranges, most specific first; anything else ipaddr.js does not call `unicast` is refused too. */
const REFUSED_V4: Array<[string, Cidr[]]> = [
  ["unspecified", [cidr("0.0.0.0/8")]],
  ["loopback", [cidr("127.0.0.0/8")]],
  ["private", [cidr("10.0.0.0/8"), cidr("172.16.0.0/12"), cidr("192.168.0.0/16")]],
  ["link-local", [cidr("169.254.0.0/16")]],
  ["carrier-grade NAT", [cidr("100.64.0.0/10")]],
  ["IETF protocol assignments", [cidr("192.0.0.0/24")]],
  ["documentation", [cidr("192.0.2.0/24"), cidr("198.51.100.0/24"), cidr("203.0.113.0/24")]],
  ["benchmarking", [cidr("198.18.0.0/15")]],
  ["6to4 relay anycast", [cidr("192.88.99.0/24")]],
  ["multicast", [cidr("224.0.0.0/4")]],
  ["broadcast", [cidr("255.255.255.255/32")]],
  ["reserved", [cidr("240.0.0.0/4")]],
];

/** Refused IPv6 ranges (IPv4-embedding ones are handled before these). */
const REFUSED_V6: Array<[string, Cidr[]]> = [
  ["unspecified", [cidr("::/128")]],
  ["loopback", [cidr("::1/128")]],
  ["IPv4-compatible (deprecated)", [cidr("::/96")]],
  ["unique local", [cidr("fc00::/7")]],
  ["link-local", [cidr("fe80::/10")]],
  ["site-local (deprecated)", [cidr("fec0::/10")]],
  ["multicast", [cidr("ff00::/8")]],
  ["discard-only", [cidr("100::/64")]],
  ["local-use NAT64", [cidr("64:ff9b:1::/48")]],
  ["Teredo", [cidr("2001::/32")]],
  ["documentation", [cidr("2001:db8::/32"), cidr("3fff::/20")]],
];

/** Only global unicast space is ever dialled. */
const GLOBAL_UNICAST_V6 = cidr("2000::/3");

const LABELS: Record<string, string> = {
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT",
  uniqueLocal: "unique local",
  as112: "AS112",
  as112v6: "AS112",
  amt: "AMT",
  rfc6052: "NAT64",
};

function matchTable(ip: IP, table: Array<[string, Cidr[]]>): string | null {
  for (const [label, ranges] of table) {
    if (ranges.some((range) => range[0].kind() === ip.kind() && ip.match(range))) return label;
  }
  return null;
}

function embeddedIPv4(ip: ipaddr.IPv6): { via: string; v4: ipaddr.IPv4 } | null {
  const p = ip.parts;
  const last32 = () => new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  switch (ip.range()) {
    case "ipv4Mapped":
      return { via: "IPv4-mapped", v4: ip.toIPv4Address() };
    case "rfc6145":
      return { via: "IPv4-translated", v4: last32() };
    case "6to4":
      return { via: "6to4", v4: new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff]) };
    default:
      return ip.match(cidr("64:ff9b::/96")) ? { via: "NAT64", v4: last32() } : null;
  }
}

/**
 * Why `ip` may not be dialled, or `null` when it is a public unicast address. Addresses embedding an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by it.
 * @returns a label such as `private`, `loopback`, `IPv4-mapped 127.0.0.1: loopback`.
 */
export function refusedRange(ip: IP): string | null {
  if (ip.kind() === "ipv4") {
    const label = matchTable(ip, REFUSED_V4);
    if (label) return label;
    const range = ip.range();
    return range === "unicast" ? null : (LABELS[range] ?? range);
  }
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) {
    const inner = refusedRange(embedded.v4);
    return inner ? `${embedded.via} ${embedded.v4.toString()}: ${inner}` : null;
  }
  const label = matchTable(v6, REFUSED_V6);
  if (label) return label;
  if (!v6.match(GLOBAL_UNICAST_V6)) return "reserved";
  const range = v6.range();
  return range === "unicast" ? null : (LABELS[range] ?? range);
}

/**
 * Parses an address as printed by a resolver or a URL (`10.0.0.5`, `::ffff:7f00:1`, `[::1]`, `fe80::1%eth0`), the
 * answer kept per text: ipaddr.js tells a host name from an address by throwing (a stack trace each time, about a
 * third of an outbound call's CPU when every call parsed its host name again).
 * @returns null when `text` is not an IP address.
 */
export function parseAddress(text: string): IP | null {
  let ip = parsed.get(text);
  if (ip === undefined) {
    const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
    ip = ipaddr.isValid(bare) ? ipaddr.parse(bare) : null;
    remember(parsed, text, ip);
  }
  return ip;
}

/**
 * Canonical form of a URL host for the checks: lower case, brackets and one trailing dot removed, and numeric
 * IPv4 forms (`2130706433`, `0x7f.1`, `127.1`, `0177.0.0.1`) turned into dotted quads; IPv6 in RFC 5952 form.
 * (WHATWG `URL` already does most of this; this also covers hosts that reach the client another way.)
 */
export function normalizeHost(host: string): string {
  let h = normalized.get(host);
  if (h === undefined) {
    h = normalizeUncached(host);
    remember(normalized, host, h);
  }
  return h;
}

/** Results of the pure parses kept per input text (every call checks its host again: this spares the parsing). */
const KEPT_RESULTS = 1000;
const normalized = new Map<string, string>();
const parsed = new Map<string, IP | null>();

/** Keeps `key` → `value` in `cache`, the oldest entry going first beyond {@link KEPT_RESULTS}. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= KEPT_RESULTS) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

function normalizeUncached(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  const ip = ipaddr.IPv4.isValid(h) || ipaddr.IPv6.isValid(h) ? ipaddr.parse(h) : null;
  if (!ip) return h;
  return ip.kind() === "ipv6" ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
}

const HOST_NAME = /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * Parses `SKIFF_OUTBOUND_ALLOW`: comma-separated CIDRs (`10.1.2.0/24`, `fd00::/8`), bare addresses
 * (`127.0.0.1`, `::1`), host names (`hooks.corp.internal`) and `*.`-prefixed host names (subdomains). Empty or
 * unset: nothing is exempted.
 * @throws Error naming the first entry that is none of these.
 */
export function parseAllowList(text: string | undefined): AllowList {
  const list: AllowList = { cidrs: [], names: [], suffixes: [], entries: [] };
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    list.entries.push(entry);
    if (entry.includes("/")) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`SKIFF_OUTBOUND_ALLOW: "${raw.trim()}" is not a valid CIDR`);
      list.cidrs.push(ipaddr.parseCIDR(entry));
      continue;
    }
    const ip = parseAddress(entry);
    if (ip && (ipaddr.IPv4.isValidFourPartDecimal(entry) || ip.kind() === "ipv6")) {
      list.cidrs.push([ip, ip.kind() === "ipv4" ? 32 : 128]);
      continue;
    }
    const name = entry.endsWith(".") ? entry.slice(0, -1) : entry;
    if (!HOST_NAME.test(name) || ip) {
      throw new Error(`SKIFF_OUTBOUND_ALLOW: "${raw.trim()}" is neither a CIDR, an IP address nor a host name`);
    }
    if (name.startsWith("*.")) list.suffixes.push(name.slice(1));
    else list.names.push(name);
  }
  return list;
}

/** Options of {@link createAddressPolicy}. */
export interface AddressPolicyOptions {
  /** Parsed `SKIFF_OUTBOUND_ALLOW`. */
  allow: AllowList;
  /** Cluster DNS suffix (`SKIFF_CLUSTER_DOMAIN`, e.g. `svc.cluster.local`); it and its subdomains are refused. */
  clusterDomain: string;
}

/** The checks, bound to one allow-list and cluster domain. Hosts are expected in {@link normalizeHost} form. */
export interface AddressPolicy {
  /** Whether the (normalised) host name is on the allow-list; its addresses are then not checked either. */
  isAllowedName(host: string): boolean;
  /**
   * Why a host *name* is refused before any resolution, or null. Refused: `localhost`, `*.localhost`,
   * `*.local`, `*.internal`, the cluster domain and its subdomains, single-label names (resolved through search
   * domains to cluster services); allow-listed names never are.
   * @returns a reason such as `blocked host name db.svc.cluster.local (cluster-internal)`.
   */
  checkName(host: string): string | null;
  /**
   * Why an address is refused, or null (public unicast, or inside an allow-listed range).
   * @returns a reason such as `blocked address 10.0.0.5 (private)`.
   */
  checkAddress(address: string): string | null;
}

/** Builds the {@link AddressPolicy} for one client. */
export function createAddressPolicy({ allow, clusterDomain }: AddressPolicyOptions): AddressPolicy {
  const cluster = normalizeHost(clusterDomain);
  const nameRules: Array<[(h: string) => boolean, string]> = [
    [(h) => cluster !== "" && (h === cluster || h.endsWith(`.${cluster}`)), "cluster-internal"],
    [(h) => h === "localhost" || h.endsWith(".localhost"), "localhost"],
    [(h) => h === "local" || h.endsWith(".local"), "mDNS .local"],
    [(h) => h === "internal" || h.endsWith(".internal"), ".internal"],
    [(h) => !h.includes("."), "single-label name"],
  ];
  const isAllowedAddress = (ip: IP): boolean =>
    allow.cidrs.some(([net, bits]) => {
      const candidate = ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() && net.kind() === "ipv4";
      const subject = candidate ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
      return subject.kind() === net.kind() && subject.match(net, bits);
    });
  // Verdicts per address text: a pure function of the address and this policy's fixed rules.
  const verdicts = new Map<string, string | null>();
  const judge = (address: string): string | null => {
    const ip = parseAddress(address);
    if (!ip) return `blocked address ${address} (not an IP address)`;
    if (isAllowedAddress(ip)) return null;
    const range = refusedRange(ip);
    return range ? `blocked address ${address} (${range})` : null;
  };
  return {
    isAllowedName(host) {
      return allow.names.includes(host) || allow.suffixes.some((suffix) => host.endsWith(suffix));
    },
    checkName(host) {
      if (this.isAllowedName(host) || parseAddress(host)) return null;
      const rule = nameRules.find(([test]) => test(host));
      return rule ? `blocked host name ${host} (${rule[1]})` : null;
    },
    checkAddress(address) {
      let verdict = verdicts.get(address);
      if (verdict === undefined) {
        verdict = judge(address);
        remember(verdicts, address, verdict);
      }
      return verdict;
    },
  };
}
