// The page in Chromium, built twice (Vite with MSW's plugin, and esbuild with no configuration but
// the entry) and served from 127.0.0.1 (a secure context: Web Crypto is there). The SDK reaches the
// mock through MSW's service worker; the page verifies a signed delivery with the webhooks entry.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build as esbuild } from 'esbuild'
import { build as viteBuild } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium } from '../../../scripts/lib/chromium.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Builds the page with Vite and its config (MSW's plugin writes the worker script). */
async function buildWithVite(outDir: string): Promise<void> {
  await viteBuild({
    root,
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  })
}

/** Builds the page with esbuild: the entry, the HTML pointing at it, and MSW's worker script copied from msw. */
async function buildWithEsbuild(outDir: string): Promise<void> {
  await esbuild({
    entryPoints: [join(root, 'src/main.ts')],
    outfile: join(outDir, 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  })
  const html = await readFile(join(root, 'index.html'), 'utf8')
  await writeFile(join(outDir, 'index.html'), html.replace('./src/main.ts', './main.js'))
  await copyFile(
    fileURLToPath(import.meta.resolve('msw/mockServiceWorker.js')),
    join(outDir, 'mockServiceWorker.js'),
  )
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
}

/** Serves `dir` on 127.0.0.1; `POST /webhook-receiver` (the page's webhook) answers 204. */
async function serve(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (req.method === 'POST' && path === '/webhook-receiver') {
      res.writeHead(204).end()
      return
    }
    const file = normalize(join(dir, path === '/' ? 'index.html' : path))
    if (!file.startsWith(dir)) {
      res.writeHead(403).end()
      return
    }
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
}

let browser: Awaited<ReturnType<typeof launchChromium>>
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe.each([
  ['Vite', buildWithVite],
  ['esbuild', buildWithEsbuild],
])('the page built with %s', (_name, buildPage) => {
  let dir: string
  let site: { url: string; server: Server }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'browser-app-'))
    await buildPage(dir)
    site = await serve(dir)
  })
  afterAll(async () => {
    site?.server.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('lists tickets through the SDK and the service worker, opens one, and verifies its signed event', async () => {
    const page = await browser.context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const apiAnswers: { url: string; fromServiceWorker: boolean }[] = []
    page.on('response', (response) => {
      if (response.url().includes('/api/v1/'))
        apiAnswers.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker() })
    })
    try {
      await page.goto(site.url)
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 15_000 })
      await expect(page.locator('#tickets li').count()).resolves.toBeGreaterThan(0)

      await page.locator('input[name=subject]').fill('Opened in Chromium')
      await page.locator('input[name=message]').fill('Through setupWorker')
      await page.getByRole('button', { name: 'Open ticket' }).click()
      await page.locator('#tickets li', { hasText: 'Opened in Chromium (open)' }).waitFor()
      await page.locator('#webhook', { hasText: 'verified ticket.created: "Opened in Chromium"' }).waitFor()
      await expect(page.locator('#webhook').textContent()).resolves.toContain('a tampered copy was refused')

      // Every API answer came from the mock in the service worker, none from a network.
      expect(apiAnswers.length).toBeGreaterThanOrEqual(3)
      expect(apiAnswers.every((answer) => answer.url.startsWith('https://api.reseller.test/api/v1/'))).toBe(
        true,
      )
      expect(apiAnswers.every((answer) => answer.fromServiceWorker)).toBe(true)
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  })
})
