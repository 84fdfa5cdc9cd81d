// State-file tests make each file in a folder of its own, so that the folder's listing shows exactly
// what a start left beside the file (a -wal, a -shm, a lock).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'

/** `freshPath(name)`: `name` in a new numbered folder under the directory `root()` gives. */
export function freshPaths(root: () => string): (name: string) => Promise<string> {
  let serial = 0
  return async (name) => {
    const folder = join(root(), `${serial++}`)
    await mkdir(folder)
    return join(folder, name)
  }
}
