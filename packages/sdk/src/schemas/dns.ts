/**
 * The length limits DNS puts on a host name (RFC 1035 §2.3.4): a URL whose host breaks them can
 * never be reached, so a webhook pointing there is refused when it is set, not when it is first
 * delivered to. Not re-exported: the URL schemas of the webhook bodies use it.
 */
import * as z from 'zod/mini'

/** Longest host name, in characters, without its optional trailing dot. */
const DNS_NAME_MAX = 253
/** Longest label (the part between two dots). */
const DNS_LABEL_MAX = 63

/** Whether the host of `url` fits DNS; IP literals and URLs that do not parse pass (other checks judge them). */
function hostFitsDns(url: string): boolean {
  let host: string
  try {
    // `hostname` is the ASCII (punycode) form, the one DNS carries.
    host = new URL(url).hostname
  } catch {
    return true
  }
  if (host.startsWith('[')) return true
  if (host.endsWith('.')) host = host.slice(0, -1)
  if (host.length > DNS_NAME_MAX) return false
  return host.split('.').every((label) => label.length <= DNS_LABEL_MAX)
}

/** The check of a URL schema: its host is a name DNS can carry. */
export const dnsHostName = z.refine<string>(
  hostFitsDns,
  `must have a host name DNS can carry: at most ${DNS_NAME_MAX} characters, each dot-separated label at most ${DNS_LABEL_MAX}`,
)
