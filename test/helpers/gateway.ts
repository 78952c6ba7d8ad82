/**
 * The one way the integration tests start a gateway in their own process (src/gateway.ts `startGateway`):
 * on 127.0.0.1 at a free port, its embedded provider too, with the client keys given written to a keys file
 * for the start, the settings given on top, and a silent logger unless one is given. Each suite's harness
 * (test/integration/<suite>/harness.ts) says only what its gateways add: an upstream, Redis, no poller, short
 * retries. Tests of the running process (signals, workers, a restart) start `touchline serve` instead
 * (test/integration/ops/gateway-process.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pino, type Logger } from 'pino'
import { onTestFinished } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { startGateway, type Gateway, type GatewayOverrides } from '../../src/gateway.ts'

/** A gateway on this machine only, at ports the system picks. */
export const LOCAL: Readonly<Record<string, string>> = { TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0' }

export interface TestGatewayOptions {
  /** TOUCHLINE_* settings, over LOCAL. */
  env?: Record<string, string>
  /** Client keys, written to a keys file (TOUCHLINE_KEYS_FILE) for the start and removed after it. */
  keys?: readonly unknown[]
  overrides?: GatewayOverrides
  /** @default silent */
  log?: Logger
  /** Close the gateway when the test that started it ends. @default false */
  closeWhenTestEnds?: boolean
}

/** Writes client keys to a keys file of their own (kept: a test may rewrite it for a reload) and returns its path. */
export function writeKeysFile (keys: readonly unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tl-keys-')), 'keys.json')
  writeFileSync(path, JSON.stringify(keys))
  return path
}

export async function startTestGateway (opts: TestGatewayOptions = {}): Promise<Gateway> {
  const env: Record<string, string> = { ...LOCAL, ...opts.env }
  let dir: string | undefined
  if (opts.keys !== undefined) {
    env.TOUCHLINE_KEYS_FILE = writeKeysFile(opts.keys)
    dir = dirname(env.TOUCHLINE_KEYS_FILE)
  }
  try {
    const gateway = await startGateway(loadConfig(env), opts.log ?? pino({ level: 'silent' }), opts.overrides)
    if (opts.closeWhenTestEnds === true) onTestFinished(async () => { await gateway.close() })
    return gateway
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  }
}
