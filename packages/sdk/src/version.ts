/** Version of this SDK, sent in the User-Agent header. */
export const VERSION = '0.1.0'
