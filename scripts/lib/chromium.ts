/**
 * Shared by every browser test (packages/mock/test/browser, examples/browser-app/test).
 * Debian's Chromium (`apt-get install chromium`) driven by playwright-core: no browser download,
 * ever. Flags that keep a headless run quiet and quick in a container: no sandbox (root in CI), no
 * GPU, no background network, a fresh profile per launch.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

/** Where Debian installs Chromium; `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
]

/** A browser context on a fresh profile; `close()` also deletes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH`,
    )
  }
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: ARGS,
    viewport: { width: 1440, height: 1000 },
  })
  return {
    context,
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
