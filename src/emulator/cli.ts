#!/usr/bin/env node
// gateway-emulator: runs the emulator headless. Prints where everything is and the seeded keys,
// and shuts down cleanly (server closed, database closed) on SIGINT or SIGTERM.
import { parseArgs } from 'node:util'
import { CLI_FLAGS, ConfigError, loadConfig, VERSION } from './config.ts'
import { startEmulator } from './emulator.ts'

const HELP = `Usage: gateway-emulator [options]

Runs the Model Gateway Emulator on 127.0.0.1. Every option can also be set with an environment
variable GATEWAY_EMULATOR_<NAME> (e.g. GATEWAY_EMULATOR_PORT=9000) or a JSON config file.

Options:
  --host <addr>           address to bind (default 127.0.0.1)
  --port <n>              API port (default 8710; 0 = any free port)
  --eu-port <n>|off       EU listener port (default port + 1; off = no EU listener)
  --db <path>|:memory:    database file (default: the user data directory)
  --seed <n>              seed for keys, ids and every generated value (default 1)
  --fixtures <dir>        directory whose files replace the bundled fixtures
  --clock system|manual   system time, or a clock that moves only when told (default system)
  --clock-start <iso>     where a manual clock starts (default 2026-01-01T12:00:00Z)
  --config <file>         JSON config file (keys as in the README's configuration reference)
  --log-level <level>     silent, error, warn, info or debug (default info)
  --key-limit-status <n>  402 or 403 for a request over a key's spending limit (default 402)
  --wrong-key-kind-status <n>  401 or 403 for a standard key on a management operation (default 401)
  --crypto-charges create|gone  create charges (default), or 410 Gone as the real endpoint today
  --embeddings-numbers doubles|token-ids  what a list of numbers as input may hold (default doubles)
  --multiframe-min-key-frames <n>  0 (default: image_settings optional) to 2 (the vendor's docs)
  --charge-cap <usd>      largest crypto charge (default 2000)
  --charge-expiry <dur>   how long a charge stays payable (default 1h)
  --charge-auto-confirm <dur>|off
                          confirm pending charges by themselves after this long (default off)
  --rate-limit-key-per-minute <n>|off, --rate-limit-key-per-day <n>|off,
  --rate-limit-account-per-minute <n>|off, --rate-limit-account-per-day <n>|off
                          request limits on embeddings and video (default off)
  --video-created <dur>, --video-queueing <dur>, --video-processing <dur>
                          time a video task spends in each state (default 1s, 5s, 20s)
  --video-failure-rate <0-1>, --video-fail-code <code>
                          share of video tasks that fail, and their err_code
  --video-credit-usd <usd>, --video-credit-status 400|402
  --callback-retry-delays <dur,...>, --callback-timeout <dur>
  --callback-concurrency <n> callback attempts at once per receiver (default 4)
  --allowed-hosts <a,b>   host names the admin API and UI answer besides loopback
  --admin-token <token>   token for the admin API and UI (required, and generated, beyond loopback)
  --cors-origins <a,b>|*  browser origins that may call the gateway and router (default none)
  --request-timeout <dur> a client must send its whole request within this (default 30s)
  --keep-alive-timeout <dur> idle keep-alive connections close after this (default 5s)
  --max-connections <n>   open connections per listener at most (default 1024)
  --journal-size <n>      requests the journal keeps (default 1000; 0 = off)
  --journal-body-limit <n> bytes of each body the journal keeps (default 16384)
  --demo                  a new database starts with 30 days of usage history
  --reset                 start from the seed, discarding the database's state
  --no-ui                 do not serve the inspector UI
  -q, --quiet             no start-up summary (keys, URLs); logs still follow --log-level
  -v, --version           print the version
  -h, --help              print this help`

function fail(message: string, code: number): never {
  process.stderr.write(`gateway-emulator: ${message}\n`)
  process.exit(code)
}

async function main(): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({ options: CLI_FLAGS, strict: true, allowPositionals: false })
  } catch (error) {
    fail(`${(error as Error).message} (see --help)`, 2)
  }
  const { help, version, quiet, 'no-ui': noUi, ...flags } = parsed.values as Record<string, string | boolean | undefined>
  if (help) {
    process.stdout.write(`${HELP}\n`)
    return
  }
  if (version) {
    process.stdout.write(`${VERSION}\n`)
    return
  }
  if (noUi) flags.ui = false

  let config
  try {
    config = loadConfig({ flags, env: process.env })
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2)
    throw error
  }

  let emulator
  try {
    emulator = await startEmulator({}, config)
  } catch (error) {
    fail((error as Error).message, 1)
  }

  // Signals are handled before the summary is printed: a script may stop us as soon as it reads it.
  // The first signal stops gracefully: no new requests, those under way finish (5 s at most), then
  // the database closes. A second one does not wait: committed state is safe in the database anyway.
  let stopping = false
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`${signal}: stopping now\n`)
      process.exit(130)
    }
    stopping = true
    if (!quiet) process.stdout.write(`\n${signal}: stopping (requests under way may finish; ${signal} again to stop now)...\n`)
    emulator
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => fail(`error while stopping: ${(error as Error).message}`, 1))
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal))

  const lines = [
    `Model Gateway Emulator ${VERSION}`,
    `  API             ${emulator.url}/api/v1`,
    `  EU API          ${emulator.euUrl ? `${emulator.euUrl}/api/v1` : '(off)'}`,
    `  Video router    ${emulator.url}/router/v1`,
    `  Admin API       ${emulator.url}/_emulator/api`,
    `  UI              ${config.ui ? emulator.uiUrl : '(off)'}`,
    `  Database        ${config.db}`,
    `  Clock           ${config.clock} (${emulator.clock.nowIso()})`,
    `  Seed            ${config.seed}`,
    '',
    `  Management key  ${emulator.keys.management}`,
    `  Standard key    ${emulator.keys.standard}`,
    ...(emulator.config.adminToken ? [`  Admin token     ${emulator.config.adminToken}  (the admin API and UI need it: ${emulator.uiUrl}?token=<token>)`] : []),
    '',
    'Press Ctrl+C to stop.',
  ]
  if (!quiet) process.stdout.write(`${lines.join('\n')}\n`)
  // One log line (no keys) that says we are ready, for scripts that run with --quiet and read the log.
  emulator.app.log.info({ url: emulator.url, euUrl: emulator.euUrl, uiUrl: config.ui ? emulator.uiUrl : null }, 'ready')
}

await main()
