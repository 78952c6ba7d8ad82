/**
 * Browser tests' harness: headless Chromium (Debian's package, driven by playwright-core) and a real
 * gateway on free ports whose store the test drives by hand (no poller), so a goal appears at an exact
 * moment. Screenshots go to test-results/screenshots/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import type { Gateway } from '../../../src/gateway.ts'
import { matches, type Matches } from '../../helpers/matches.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const HAVE_CHROMIUM = existsSync(CHROMIUM)
if (!HAVE_CHROMIUM) {
  process.stderr.write(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)\n`)
}

export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots')

export async function launchBrowser (): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']
  })
}

/** Where `docs: true` screenshots go when TOUCHLINE_DOCS_SCREENSHOTS=1 (the README links them). */
export const DOCS_SCREENSHOTS = join(process.cwd(), 'docs', 'ui')

/**
 * Saves a screenshot as test-results/screenshots/<name>.png; with `docs`, and TOUCHLINE_DOCS_SCREENSHOTS=1
 * set, also as docs/ui/<name>.png (how the README's pictures are made: the tests put each state on screen),
 * and with `demo` as docs/demo.png too (the README's picture).
 */
export async function shot (page: Page, name: string, opts: { docs?: boolean, demo?: boolean, fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: opts.fullPage === true })
  if (opts.docs === true && process.env.TOUCHLINE_DOCS_SCREENSHOTS === '1') {
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: join(DOCS_SCREENSHOTS, `${name}.png`), fullPage: opts.fullPage === true })
    if (opts.demo === true) await page.screenshot({ path: join(DOCS_SCREENSHOTS, '..', 'demo.png'), fullPage: opts.fullPage === true })
  }
  return path
}

/** axe-core's violations on the page (open shadow roots included), as `rule: target` lines. */
export async function axeViolations (page: Page): Promise<string[]> {
  // Evaluated, not added as a script tag: the gateway's pages have a CSP that forbids inline scripts.
  if (await page.evaluate('typeof axe') === 'undefined') await page.evaluate(readFileSync(AXE, 'utf8'))
  const found = await page.evaluate('axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => JSON.stringify(n.target)).join(", ")))')
  return found as string[]
}
const AXE = join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js')

/** A computed style property of the element, read in the page (tests are typed without the DOM library). */
export async function computed (locator: Locator, prop: string): Promise<string> {
  return await locator.evaluate((el, p) => {
    const win = globalThis as unknown as { getComputedStyle: (e: unknown) => Record<string, string> }
    return win.getComputedStyle(el)[p] ?? ''
  }, prop)
}

/**
 * The ceiling on a page's first connection (load, bundle, socket, snapshot). Not a goal: alone it takes
 * well under a second; beside the whole suite on two busy cores it has taken over 5 s.
 */
export const CONNECT_CEILING = 30_000

/** Something to find a connection pill in: a page, a frame or a locator. */
interface Scope { locator: (selector: string) => Locator }

/**
 * Resolves once the pill `selector` in `scope` says live (`#connection` for the board, the match page and
 * /status; `.tlw-conn` inside a widget): the state is awaited, with CONNECT_CEILING as a ceiling.
 */
export async function whenLive (scope: Scope, selector = '#connection'): Promise<void> {
  await scope.locator(`${selector}[data-state="live"]`).waitFor({ timeout: CONNECT_CEILING })
}

/** Collects uncaught page errors, to assert a page ran clean. */
export function watchErrors (page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`))
  return errors
}

export interface KeySpec {
  key: string
  name: string
  leagues?: number[] | '*'
  allowed_origins?: string[] | '*'
  features?: Array<'xg' | 'odds' | 'predictions'>
}

export interface UiGateway {
  gw: Gateway
  url: string
  matches: Matches
  close: () => Promise<void>
}

export interface UiGatewayOptions {
  /** More TOUCHLINE_* settings (e.g. TOUCHLINE_LEAGUE_PRIORITY). */
  env?: Record<string, string>
  /** Run the poller over the embedded provider's simulated matches (60x) instead of a store driven by hand. */
  poll?: boolean
}

/**
 * A gateway (embedded provider for the passthrough's league names and days; no poller unless asked) with
 * the given keys.
 */
export async function startUiGateway (keys?: KeySpec[], opts: UiGatewayOptions = {}): Promise<UiGateway> {
  const gw = await startTestGateway({ env: { TOUCHLINE_LOG_LEVEL: 'silent', ...opts.env }, ...(keys !== undefined ? { keys } : {}), overrides: { poll: opts.poll === true } })
  return { gw, url: gw.url, matches: matches(gw.store), close: async () => { await gw.close() } }
}
