/**
 * Where a webhook may point when the mock runs without `insecureWebhooks`: public unicast hosts
 * only. The rule is an allow-list so that whatever it does not know fails closed:
 *
 * - an IPv4 address passes only if `ipaddr.js` files it under `unicast` (none of the IANA
 *   special-purpose ranges: loopback, private, link-local, CGNAT, benchmarking, documentation,
 *   multicast, broadcast, reserved…);
 * - an IPv6 address passes only inside global unicast `2000::/3` and outside every special range
 *   `ipaddr.js` knows (6to4, Teredo, documentation, benchmarking, ORCHID…). So `::1`, `::`,
 *   IPv4-compatible `::a.b.c.d`, site-local `fec0::/10`, unique-local `fc00::/7`, link-local and
 *   multicast are refused. Two forms that carry an IPv4 address are judged by that address: an
 *   IPv4-mapped `::ffff:a.b.c.d` and a well-known-prefix NAT64 `64:ff9b::a.b.c.d` (what a DNS64
 *   resolver answers for an IPv4-only host); the local-use NAT64 prefix `64:ff9b:1::/48` is refused;
 * - a name is refused when it can only mean this machine or a local network (`localhost`,
 *   `*.localhost`, single-label names, `.local`, `.internal`, `.home.arpa`, `.localdomain`),
 *   trailing dots ignored. Any other name passes here; the standalone server checks the address it
 *   actually connects to (`server/public-fetch.ts`).
 *
 * No `node:` import: this runs wherever the mock runs (browsers and Workers too).
 */
import ipaddr from 'ipaddr.js'

/** Name suffixes that only ever resolve inside a machine or a local network. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain']

/** IPv6 global unicast (RFC 4291 §2.4): everything outside it is special or unassigned. */
const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3]
/** The NAT64 well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const NAT64_WELL_KNOWN: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('64:ff9b::'), 96]

/** Readable names of `ipaddr.js` ranges, for error messages. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10)',
  private: 'a private',
  reserved: 'a reserved or documentation',
  benchmarking: 'a benchmarking',
  as112: 'an AS112',
  as112v6: 'an AS112',
  amt: 'an AMT',
  uniqueLocal: 'a unique-local',
  ipv4Mapped: 'an IPv4-mapped',
  rfc6145: 'an IPv4-translated',
  rfc6052: 'a local-use NAT64 (64:ff9b:1::/48)',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
  discard: 'a discard-only',
  deprecatedSiteLocal: 'a site-local',
  deprecatedOrchid: 'an ORCHID',
  orchid2: 'an ORCHID',
  droneRemoteIdProtocolEntityTags: 'a drone remote ID',
  segmentRouting: 'a segment-routing',
}

/** IPv4 blocks that `ipaddr.js` files under `reserved`, named as the IANA registry names them. */
const RESERVED_V4_NAMES: [[ipaddr.IPv4, number], string][] = [
  [ipaddr.IPv4.parseCIDR('198.18.0.0/15'), 'a benchmarking (198.18.0.0/15)'],
  [ipaddr.IPv4.parseCIDR('192.0.2.0/24'), 'a documentation (192.0.2.0/24)'],
  [ipaddr.IPv4.parseCIDR('198.51.100.0/24'), 'a documentation (198.51.100.0/24)'],
  [ipaddr.IPv4.parseCIDR('203.0.113.0/24'), 'a documentation (203.0.113.0/24)'],
  [ipaddr.IPv4.parseCIDR('240.0.0.0/4'), 'a reserved (240.0.0.0/4)'],
]

/** Strips URL brackets and trailing dots, lower-cases. */
function normalizeHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '')
}

/** Why an IPv4 address is not a public unicast one, or `null` when it is. */
function ipv4Problem(address: ipaddr.IPv4): string | null {
  const range = address.range()
  if (range === 'unicast') return null
  const named =
    range === 'reserved' ? RESERVED_V4_NAMES.find(([block]) => address.match(block))?.[1] : undefined
  return `${address.toString()} is ${named ?? RANGE_NAMES[range] ?? `a special-purpose (${range})`} address`
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high = 0, low = 0] = address.parts.slice(-2)
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

/** Why an IPv6 address is not a public unicast one, or `null` when it is. */
function ipv6Problem(address: ipaddr.IPv6): string | null {
  const text = address.toRFC5952String()
  if (address.isIPv4MappedAddress()) {
    const inner = ipv4Problem(address.toIPv4Address())
    return inner && `${text} maps to ${inner.replace(' is ', ', which is ')}`
  }
  if (address.match(NAT64_WELL_KNOWN)) {
    const inner = ipv4Problem(embeddedIPv4(address))
    return inner && `${text} translates to ${inner.replace(' is ', ', which is ')}`
  }
  const range = address.range()
  if (range !== 'unicast') {
    return `${text} is ${RANGE_NAMES[range] ?? `a special-purpose (${range})`} address`
  }
  if (!address.match(GLOBAL_UNICAST_V6)) {
    // `::a.b.c.d` (IPv4-compatible, deprecated), `::/8` and every unassigned block.
    return `${text} is not a global unicast address`
  }
  return null
}

/**
 * Why an IP address (v4 or v6, with or without URL brackets) is not public unicast, or `null` when
 * it is. A string that is not an IP address is refused too.
 */
export function addressProblem(address: string): string | null {
  const host = normalizeHost(address)
  // Only the canonical forms: `ipaddr.parse` also reads `0x7f.1`, which a URL host never is.
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipv4Problem(ipaddr.IPv4.parse(host))
  if (ipaddr.IPv6.isValid(host)) {
    const v6 = ipaddr.IPv6.parse(host)
    if (v6.zoneId !== undefined) return `${host} has a zone index: a link-local scope`
    return ipv6Problem(v6)
  }
  return `${address} is not an IP address`
}

/** Whether `hostname` (a URL's, brackets allowed) is an IP literal rather than a name. */
export function isIpLiteral(hostname: string): boolean {
  const host = normalizeHost(hostname)
  return ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host)
}

/**
 * Why a URL's host is not a public one, or `null`: IP literals by {@link addressProblem}, names by
 * the local-name rule above (their addresses are checked where the connection is made).
 */
export function hostProblem(hostname: string): string | null {
  const host = normalizeHost(hostname)
  if (isIpLiteral(host)) return addressProblem(host)
  if (host === '' || host === 'localhost') return `${hostname} names this machine`
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return `${hostname} names a host of the local network`
  }
  if (!host.includes('.')) return `${hostname} is a single-label name, not a public host`
  return null
}

/** Why `url` cannot be a webhook target at all (not a URL, or not `http(s)://`), or `null`. */
export function urlProblem(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'must be a valid URL'
  }
  return parsed.protocol === 'https:' || parsed.protocol === 'http:'
    ? null
    : 'must be an http:// or https:// URL'
}

/**
 * What ends the refusal of a target before an attempt: a decision of the mock's policy (it tells
 * nothing about the network: no connection was made), and the setting that lifts it.
 */
export const REFUSED_TARGET_HINT =
  'the mock sends to loopback and private addresses, and over http://, only when started with --insecure-webhooks (createMockApi({ insecureWebhooks: true }) in-process); nothing was sent'

/** `target refused: …; ` and {@link REFUSED_TARGET_HINT}: a delivery's `error` for a refused target. */
export function targetRefused(problem: string): string {
  return `target refused: ${problem}; ${REFUSED_TARGET_HINT}`
}

/**
 * Why an attempt to `url` is refused without `insecureWebhooks`, as a delivery's `error`, or `null`.
 * A loopback or private host is named first, even on `http://`: that is what a user must change.
 */
export function attemptRefusal(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return targetRefused('url must be a valid URL')
  }
  const host = hostProblem(parsed.hostname)
  if (host) return targetRefused(host)
  const problem = targetProblem(url)
  return problem && targetRefused(`url ${problem}`)
}

/**
 * Why a general webhook's target URL is refused without `insecureWebhooks` (HTTPS on a public host),
 * as a message that names the rule (it completes "url …"), or `null` when it may be used.
 */
export function targetProblem(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'must be a valid URL'
  }
  if (parsed.protocol === 'http:') return 'must be an https:// URL: HTTP is refused'
  if (parsed.protocol !== 'https:') return 'must be an https:// URL'
  const problem = hostProblem(parsed.hostname)
  return problem && `must point to a public host: ${problem}`
}
