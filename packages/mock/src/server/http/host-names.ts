/**
 * Host names as the standalone server judges them: a `Host` value's name, a bound host's, and
 * whether it names this machine's loopback interface. Apart from the Host guard (guard.ts), so
 * that the CLI checks its `--host` without loading what the guard answers with (the error
 * envelope and the SDK's schemas behind it) before the server's ready line.
 */
import { BlockList, isIP } from 'node:net'

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')
// IPv4-mapped loopback (`[::ffff:127.0.0.1]`): the same interface under its IPv6 spelling.
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6')

/** Hosts that bind every interface. */
export const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', ''])

/**
 * The host name of a `Host` value, lower-case, without port, brackets or a trailing dot; `null`
 * when it is not a host at all (`Host: a b`).
 */
export function hostName(value: string): string | null {
  let host = value.trim().toLowerCase()
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    if (end === -1) return null
    const rest = host.slice(end + 1)
    if (rest !== '' && !/^:\d*$/.test(rest)) return null
    host = host.slice(1, end)
    return isIP(host) === 6 ? host : null
  }
  const colon = host.indexOf(':')
  if (colon !== -1) {
    if (!/^\d*$/.test(host.slice(colon + 1))) return null
    host = host.slice(0, colon)
  }
  if (host.endsWith('.')) host = host.slice(0, -1)
  // A DNS name or an IPv4 address: letters, digits, dots, hyphens, underscores; nothing else.
  return /^[a-z0-9_.-]+$/.test(host) ? host : null
}

/** {@link hostName} of a `host` to bind, where an IPv6 address comes without brackets (`::1`). */
export function boundHostName(host: string): string | null {
  return hostName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host)
}

/** Whether `host` (as {@link hostName} gives it) names this machine's loopback interface. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  const family = isIP(host)
  if (family === 4) return LOOPBACK.check(host, 'ipv4')
  if (family === 6) return LOOPBACK.check(host, 'ipv6')
  return false
}

/**
 * Whether a server bound to `host` (as given to `listen`: `127.0.0.1`, `::1`, `localhost`,
 * `0.0.0.0`, a LAN address or name) is reachable from this machine only. A wildcard or any other
 * address is a shared mock, which other machines can drive.
 */
export function isLoopbackBind(host: string): boolean {
  const name = boundHostName(host)
  return name !== null && !WILDCARDS.has(name) && isLoopbackHost(name)
}
