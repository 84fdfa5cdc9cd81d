/** The mock's base URL, split for matching: `https://api.reseller.test` or one with a path prefix. */
export interface BaseUrl {
  /** Normalized: origin plus path prefix, no trailing slash. */
  href: string
  origin: string
  /** Path prefix without a trailing slash; `''` for none. */
  path: string
}

/** Parses and normalizes a base URL; throws a TypeError naming it when it is not an http(s) URL. */
export function parseBaseUrl(baseUrl: string): BaseUrl {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL, got ${JSON.stringify(baseUrl)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`)
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`baseUrl must not carry a query or fragment, got ${JSON.stringify(baseUrl)}`)
  }
  const path = url.pathname.replace(/\/+$/, '')
  return { href: url.origin + path, origin: url.origin, path }
}

/**
 * The path of `url` below the base URL (starting with `/`), or `undefined` when `url` is outside it.
 */
export function pathBelow(base: BaseUrl, url: URL): string | undefined {
  if (url.origin !== base.origin) return undefined
  const pathname = url.pathname
  if (base.path === '') return pathname
  if (pathname === base.path) return '/'
  if (pathname.startsWith(base.path) && pathname.charCodeAt(base.path.length) === 47 /* '/' */) {
    return pathname.slice(base.path.length)
  }
  return undefined
}
