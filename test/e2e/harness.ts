// End-to-end tests drive Debian's Chromium (playwright-core, no downloaded browser) against the UI
// served by a real emulator. Where Chromium is not installed they are skipped, saying why; CI
// installs it. Screenshots go to test-results/screenshots/. The project's global setup (global-setup.ts)
// has rebuilt the UI if its sources changed.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { onTestFinished } from 'vitest'
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const hasChromium = existsSync(CHROMIUM)
// Said where the run shows it (the file's stderr), not only in a skipped suite's name.
if (!hasChromium) console.warn(`Skipping the inspector's end-to-end tests: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`)
const ROOT = join(import.meta.dirname, '../..')
const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots')

let browser: Browser | undefined

export async function launch(): Promise<Browser> {
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  })
  return browser
}

export async function closeBrowser(): Promise<void> {
  await browser?.close()
  browser = undefined
}

export interface UiSession {
  emu: RunningEmulator
  page: Page
  /** Saves a full-page screenshot as test-results/screenshots/<name>.png. */
  screenshot(name: string): Promise<string>
}

/** A fresh emulator (manual clock, in memory) and a page on its UI at the given view; `browser` sets the context (a time zone...). */
export async function openUi(view: string, options: EmulatorOptions = {}, browser: BrowserContextOptions = {}): Promise<UiSession> {
  const emu = await startEmulator({
    port: 0,
    euPort: -1,
    db: ':memory:',
    clock: 'manual',
    clockStart: '2026-03-04T10:00:00.000Z',
    logLevel: 'silent',
    ...options,
  })
  const context = await (await launch()).newContext({ viewport: { width: 1360, height: 860 }, ...browser })
  const page = await context.newPage()
  onTestFinished(async () => {
    await context.close()
    await emu.close()
  })
  await page.goto(`${emu.uiUrl}#/${view}`)
  return {
    emu,
    page,
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true })
      const path = join(SCREENSHOTS, `${name}.png`)
      await page.screenshot({ path, fullPage: true })
      return path
    },
  }
}
