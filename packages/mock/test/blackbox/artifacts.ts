/** What the black-box suite runs, and which of it: shared by the global setup and the tests. */
import { fileURLToPath } from 'node:url'

/** `pnpm run build:binary`'s output. */
export const BINARY = fileURLToPath(new URL('../../dist-bin/reseller-mock', import.meta.url))
/** `pnpm run build:image`'s output (an OCI image layout). */
export const IMAGE_LAYOUT = fileURLToPath(new URL('../../dist-image', import.meta.url))

export type TargetName = 'npm' | 'binary' | 'image'

/** Targets of this run: `BLACKBOX_TARGETS=npm,binary` picks some; default all three. */
export function selectedTargets(): TargetName[] {
  const names = (process.env.BLACKBOX_TARGETS ?? 'npm,binary,image').split(',').map((name) => name.trim())
  for (const name of names) {
    if (!['npm', 'binary', 'image'].includes(name))
      throw new Error(`BLACKBOX_TARGETS: unknown target "${name}"`)
  }
  return names as TargetName[]
}
