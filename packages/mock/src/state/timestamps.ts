/** The store's timestamps: microseconds since the epoch, written `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */

/** Formats microseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function formatMicros(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString()
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`
}

/** Reads a `…ffffffZ` timestamp back as microseconds since the epoch. */
export function parseMicros(timestamp: string): number {
  const match = /^(.{19})(?:\.(\d{1,6})\d*)?Z$/.exec(timestamp)
  if (!match) return Number.NaN
  return Date.parse(`${match[1]}Z`) * 1000 + Number((match[2] ?? '').padEnd(6, '0'))
}
