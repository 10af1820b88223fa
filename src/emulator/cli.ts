#!/usr/bin/env node
// gateway-emulator: runs the emulator headless. Prints where everything is and the seeded keys,
// and shuts down cleanly (server closed, database closed) on SIGINT or SIGTERM.
import './cli-heap.ts'
import { parseArgs } from 'node:util'
import { CLI_FLAGS, ConfigError, helpText, loadConfig, settingFlags, VERSION } from './config.ts'
import { startEmulator } from './emulator.ts'
import { problemLine } from './modules/recordings/recordings.errors.ts'
import { loadFolder } from './modules/recordings/recordings-replay.service.ts'

/** A repeat of the signal that started the stop, within this many ms, is the same stop delivered twice. */
const DUPLICATE_SIGNAL_MS = 500

function fail(message: string, code: number): never {
  process.stderr.write(`gateway-emulator: ${message}\n`)
  process.exit(code)
}

/** `gateway-emulator validate <dir>`: checks a folder of recordings as --replay reads it, without starting. */
function validate(args: string[]): void {
  let parsed
  try {
    parsed = parseArgs({ args, options: { help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true })
  } catch (error) {
    fail(`${(error as Error).message} (see validate --help)`, 2)
  }
  if (parsed.values.help) {
    process.stdout.write(
      'Usage: gateway-emulator validate <dir>\n\nChecks the recordings of <dir> (its *.json files, subfolders included) as --replay reads them,\nwithout starting a server: one line per problem (file, field, what is wrong), exit 1 if any.\n',
    )
    return
  }
  if (parsed.positionals.length !== 1) fail('validate takes one folder: gateway-emulator validate <dir>', 2)
  const folder = parsed.positionals[0]!
  const loaded = loadFolder(folder)
  for (const problem of loaded.problems) process.stdout.write(`${problemLine(problem)}\n`)
  if (loaded.problems.length > 0) {
    process.stdout.write(`${loaded.problems.length} ${loaded.problems.length === 1 ? 'problem' : 'problems'} in ${folder}\n`)
    process.exit(1)
  }
  const text = loaded.recordings.filter((r) => r.body.text !== undefined).length
  process.stdout.write(`${folder}: ${loaded.recordings.length} recordings are valid (${text} text, ${loaded.recordings.length - text} other)\n`)
}

async function main(): Promise<void> {
  if (process.argv[2] === 'validate') return validate(process.argv.slice(3))
  let parsed
  try {
    parsed = parseArgs({ options: CLI_FLAGS, strict: true, allowPositionals: false })
  } catch (error) {
    fail(`${(error as Error).message} (see --help)`, 2)
  }
  const values = parsed.values as Record<string, string | boolean | undefined>
  const { help, version, quiet } = values
  if (help) {
    process.stdout.write(`${helpText()}\n`)
    return
  }
  if (version) {
    process.stdout.write(`${VERSION}\n`)
    return
  }
  let config
  try {
    config = loadConfig({ flags: settingFlags(values), env: process.env })
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
  // One stop can arrive twice, though: under `npm start` a Ctrl+C signals the terminal's whole process
  // group (npm and us) and npm forwards its copy to us; `kill -- -PGID` and systemd (which signals
  // every process of the service) do the same. The copies come within milliseconds; a person who
  // means "stop now" presses again after reading the stopping line. So the same signal again within
  // DUPLICATE_SIGNAL_MS of the first is that first one, and only a later one (or another signal)
  // stops at once.
  let stopping: { signal: NodeJS.Signals; at: number } | null = null
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      if (signal === stopping.signal && performance.now() - stopping.at < DUPLICATE_SIGNAL_MS) return
      process.stderr.write(`${signal}: stopping now\n`)
      process.exit(130)
    }
    stopping = { signal, at: performance.now() }
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
    // With a token, the UI link carries it: opened once, the browser keeps it in a cookie.
    `  UI              ${config.ui ? (emulator.config.adminToken ? `${emulator.uiUrl}?token=${encodeURIComponent(emulator.config.adminToken)}` : emulator.uiUrl) : '(off)'}`,
    `  Database        ${config.db}`,
    `  Clock           ${config.clock} (${emulator.clock.nowIso()})`,
    `  Seed            ${config.seed}`,
    // Record and replay, where configured: the upstream by its origin only (never its key).
    ...(config.upstream !== null ? [`  Upstream        ${config.upstream} (key ${config.upstreamKey !== null ? 'set' : 'not set'})`] : []),
    ...(config.replay !== null ? [`  Replay          ${config.replay} (${emulator.ctx.services.recordings.list().length} recordings)`] : []),
    ...(config.record !== null ? [`  Record          ${config.record}`] : []),
    ...(config.replay !== null || config.upstream !== null ? [`  On a miss       ${emulator.ctx.services.recordings.onMiss}`] : []),
    '',
    `  Management key  ${emulator.keys.management}`,
    `  Standard key    ${emulator.keys.standard}`,
    ...(emulator.config.adminToken
      ? [`  Admin token     ${emulator.config.adminToken}  (the admin API and UI need it: Authorization: Bearer <token>, or the UI link above)`]
      : []),
    '',
    'Press Ctrl+C to stop.',
  ]
  if (!quiet) process.stdout.write(`${lines.join('\n')}\n`)
  // One log line (no keys) that says we are ready, for scripts that run with --quiet and read the log.
  emulator.app.log.info({ url: emulator.url, euUrl: emulator.euUrl, uiUrl: config.ui ? emulator.uiUrl : null }, 'ready')
}

await main()
