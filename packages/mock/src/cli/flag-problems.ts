/**
 * What every command of `reseller-mock` says about a command line `parseArgs` refuses and about a
 * file a flag names that cannot be read: one wording for all of them (docs/running-the-mock.md,
 * "Exit codes"), instead of Node's (`Unknown option '--prot'. To specify a positional argument…`)
 * and raw `ENOENT: no such file or directory, open …` text.
 */

/** Node's codes for what `parseArgs` refuses. */
type ParseArgsCode =
  | 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
  | 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
  | 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'

/** Optimal string alignment distance: edits, a swap of two neighbours counted as one (`prot` → `port`). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

/** The flag `given` was most likely meant to be (a typo of at most two edits), if any. */
export function closestFlag(given: string, flags: readonly string[]): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0]!.toLowerCase()
  if (name === '') return undefined
  let best: { flag: string; distance: number } | undefined
  for (const flag of flags) {
    const distance = editDistance(name, flag)
    // Two edits for names of five letters or more, one for shorter ones: `--pot` is --port, `-x` nothing.
    const limit = Math.min(2, Math.floor(flag.length / 3))
    if (distance <= limit && (!best || distance < best.distance)) best = { flag, distance }
  }
  return best && `--${best.flag}`
}

/** The token Node quotes in its message: `'--prot'`. */
function quoted(message: string): string | undefined {
  return /'([^']*)'/.exec(message)?.[1]
}

/**
 * A `parseArgs` refusal in our words: `unknown option --prot (did you mean --port?)`, `--port needs
 * a value`, `--quiet takes no value`, `unexpected argument "extra"`. Other errors keep their message.
 */
export function describeParseArgsError(error: unknown, flags: readonly string[]): string {
  const { code, message } = error as { code?: ParseArgsCode; message: string }
  const token = quoted(message)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && token !== undefined) {
    const guess = closestFlag(token, flags)
    return `unknown option ${token}${guess ? ` (did you mean ${guess}?)` : ''}`
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && token !== undefined) {
    const flag = token.replace(/^-\w, /, '').split(' ')[0]!
    return /does not take an argument/.test(message) ? `${flag} takes no value` : `${flag} needs a value`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' && token !== undefined)
    return `unexpected argument "${token}" (this command takes options only)`
  return message
}

/** Why a file could not be read, in words: `does not exist`, `permission denied`, `is a directory`. */
export function fileProblem(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ENOENT') return 'does not exist'
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)'
  if (code === 'EISDIR') return 'is a directory, not a file'
  if (code === 'ENOTDIR') return 'does not exist (a part of its path is not a directory)'
  return `cannot be read (${message})`
}
