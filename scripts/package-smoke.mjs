// The package as a user gets it: packs the tarball (prepack builds), checks it holds only what the
// `files` allow-list names, installs it into a fresh project, then, with plain node, imports both entry
// points, starts an emulator, calls the API and the testing helper, and stops it; runs
// `npx gateway-emulator --version`; runs the README's "Use it in your project" shell snippet; and
// compiles its TypeScript snippets with `tsc --strict` (no skipLibCheck) against the installed package;
// and runs the README's vitest plugin example (its vitest.config.ts and its test file, twice under two
// names: two test files on the one emulator of the run, each asserting its own journal).
// PACKAGE_SMOKE_VITEST_DOC=<file.md> reads that example from a draft instead of README.md.
// Exits 1 with what failed.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const root = join(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const work = mkdtempSync(join(tmpdir(), 'gateway-emulator-smoke-'))
// An image, a speech and a transcript made by the media worker threads (their entry is a file of its
// own in dist/ and out/cli/, found beside the code that starts it): a 1024x1024 image, a WAV of a few
// seconds and the 1,500 words of ten minutes of audio (the worker loads the faker and the tokenizer),
// each too large to be made in the emulator's own thread.
const MEDIA_CHECKS = `async function media(url, key) {
  const post = (path, body) =>
    fetch(url + '/api/v1' + path, { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const image = await post('/images', { model: 'openai/gpt-image-1', prompt: 'a lighthouse at dusk' })
  if (image.status !== 200) throw new Error('POST /api/v1/images: ' + image.status + ' ' + (await image.text()))
  const png = Buffer.from((await image.json()).data[0].b64_json, 'base64')
  if (png.toString('latin1', 1, 4) !== 'PNG') throw new Error('POST /api/v1/images: not a PNG')
  const speech = await post('/audio/speech', { model: 'openai/gpt-4o-mini-tts', input: 'Hello from the package, said by a worker thread.', response_format: 'wav' })
  const wav = Buffer.from(await speech.arrayBuffer())
  if (speech.status !== 200 || wav.toString('latin1', 0, 4) !== 'RIFF') throw new Error('POST /api/v1/audio/speech: ' + speech.status + ' ' + wav.toString().slice(0, 200))
  // A FLAC's STREAMINFO alone, saying ten minutes at 48 kHz.
  const flac = Buffer.alloc(42)
  flac.write('fLaC', 0, 'latin1')
  flac[4] = 0x80
  flac.writeUIntBE(34, 5, 3)
  flac.writeUIntBE((48000 << 12) | (15 << 4), 18, 4)
  flac.writeUInt32BE(48000 * 600, 22)
  const heard = await post('/audio/transcriptions', {
    model: 'openai/whisper-large-v3',
    input_audio: { data: flac.toString('base64'), format: 'flac' },
    response_format: 'verbose_json',
    timestamp_granularities: ['word'],
  })
  const transcript = await heard.json()
  if (heard.status !== 200 || transcript.words?.length !== 1500) throw new Error('POST /api/v1/audio/transcriptions: ' + heard.status + ' ' + JSON.stringify(transcript).slice(0, 200))
}`
const failures = []
const step = (what) => console.log(`package smoke: ${what}`)
const run = (command, args, cwd, extra = {}) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...extra })

try {
  step('npm pack (prepack builds)')
  // The prepack build prints on stdout too: the JSON report is the array at the end.
  const packOutput = run('npm', ['pack', '--json', '--pack-destination', work], root, { stdio: ['ignore', 'pipe', 'inherit'] })
  const [packed] = JSON.parse(packOutput.slice(packOutput.search(/^\[/m)))
  const tarball = join(work, packed.filename)

  // Only the allow-list: the built emulator, the built CLI and UI, fixtures, README, LICENSE, package.json.
  const allowed = [/^dist\//, /^out\/cli\//, /^out\/renderer\//, /^fixtures\//, /^README\.md$/, /^LICENSE$/, /^package\.json$/]
  const outside = packed.files.map((f) => f.path).filter((path) => !allowed.some((re) => re.test(path)) || /(^|\/)test\/|\.test\.|\.spec\./.test(path))
  if (outside.length > 0) failures.push(`the tarball holds files outside the allow-list: ${outside.slice(0, 10).join(', ')}`)
  for (const needed of [
    'dist/index.js',
    'dist/index.d.ts',
    'dist/testing.js',
    'dist/testing.d.ts',
    'dist/vitest/index.js',
    'dist/vitest/index.d.ts',
    'out/cli/cli.js',
    'out/renderer/index.html',
    'LICENSE',
  ]) {
    if (!packed.files.some((f) => f.path === needed)) failures.push(`the tarball lacks ${needed}`)
  }
  step(`${packed.filename}: ${packed.files.length} files, ${Math.round(packed.size / 1024)} kB`)

  const project = join(work, 'project')
  run('mkdir', ['-p', project], work)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'smoke-project', private: true, type: 'module' }, null, 2))
  step('npm install the tarball into a fresh project')
  // The versions this repository tests with: typescript for the snippets, vitest and openai for the plugin example.
  const versions = ['typescript', '@types/node', 'vitest', 'openai'].map((name) => `${name}@${pkg.devDependencies[name]}`)
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...versions], project, {
    stdio: ['ignore', 'pipe', 'inherit'],
  })

  step('plain node: both entry points, an emulator on a free port, the API and the testing helper')
  writeFileSync(
    join(project, 'use.mjs'),
    `import { startEmulator, VERSION } from 'model-gateway-emulator'
import { EmulatorAdmin, startTestEmulator } from 'model-gateway-emulator/testing'
const emu = await startEmulator({ port: 0, db: ':memory:' })
const models = await fetch(emu.url + '/api/v1/models')
if (models.status !== 200) throw new Error('GET /api/v1/models: ' + models.status)
${MEDIA_CHECKS}
await media(emu.url, emu.keys.standard)
const admin = new EmulatorAdmin(emu.url)
const ws = await admin.workspace({ credits_usd: 1 })
const credits = await fetch(ws.apiUrl + '/credits', { headers: { authorization: 'Bearer ' + ws.keys.management } })
if (credits.status !== 200) throw new Error('GET /api/v1/credits: ' + credits.status)
const ui = await fetch(emu.uiUrl)
if (!(await ui.text()).includes('<script')) throw new Error('the inspector UI is not in the package')
await emu.close()
const test = await startTestEmulator()
await test.admin.advance('1d')
await test.close()
console.log('ok ' + VERSION)
`,
  )
  const used = run('node', ['use.mjs'], project).trim()
  if (used !== `ok ${pkg.version}`) failures.push(`use.mjs printed ${JSON.stringify(used)}`)

  step('the bundled CLI (gateway-emulator) makes an image and a speech')
  writeFileSync(
    join(project, 'cli-media.mjs'),
    `import { spawn } from 'node:child_process'
${MEDIA_CHECKS}
const cli = spawn(process.execPath, ['node_modules/model-gateway-emulator/out/cli/cli.js', '--port', '0', '--db', ':memory:', '--eu-port', 'off', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] })
let out = ''
cli.stdout.on('data', (chunk) => (out += chunk))
const until = Date.now() + 30000
while (!out.includes('Press Ctrl+C')) {
  if (cli.exitCode !== null || Date.now() > until) throw new Error('the CLI did not start: ' + out)
  await new Promise((resolve) => setTimeout(resolve, 20))
}
try {
  await media(/API\\s+(http:\\/\\/127\\.0\\.0\\.1:\\d+)\\/api\\/v1/.exec(out)[1], /Standard key\\s+(\\S+)/.exec(out)[1])
} finally {
  cli.kill('SIGTERM')
}
console.log('ok')
`,
  )
  const cliMedia = run('node', ['cli-media.mjs'], project).trim()
  if (cliMedia !== 'ok') failures.push(`cli-media.mjs printed ${JSON.stringify(cliMedia)}`)

  step('npx gateway-emulator --version')
  const version = run('npx', ['--no-install', 'gateway-emulator', '--version'], project).trim()
  if (version !== pkg.version) failures.push(`npx gateway-emulator --version printed ${JSON.stringify(version)}, not ${pkg.version}`)

  // The README's own snippets, as a user would paste them.
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Use it in your project'), readme.indexOf('\n## ', readme.indexOf('## Use it in your project') + 1))
  const blocks = (lang) => [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1])
  const ts = blocks('ts')
  const sh = blocks('sh').filter((text) => text.includes('npx gateway-emulator'))
  if (ts.length === 0 || sh.length === 0) failures.push('the README section "Use it in your project" has no ts or sh snippets to check')

  step(`tsc --strict over the README's ${ts.length} TypeScript snippets`)
  ts.forEach((text, i) => writeFileSync(join(project, `snippet-${i}.ts`), text))
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2023', noEmit: true, types: ['node'] },
        include: ['snippet-*.ts'],
      },
      null,
      2,
    ),
  )
  try {
    run('npx', ['--no-install', 'tsc', '-p', 'tsconfig.json'], project)
  } catch (error) {
    failures.push(`tsc --strict failed on the README's snippets:\n${error.stdout}${error.stderr}`)
  }

  step("the README's CLI-in-CI snippet")
  for (const text of sh) {
    try {
      // Job control on, so `kill %1` stops the whole background job (npx and the emulator it started), not npx alone.
      const script = `set -m\n${text}\ncurl -sf "$GATEWAY_URL/models" > /dev/null\necho "url $GATEWAY_URL"\nkill %1\nwait %1 || true`
      const out = run('bash', ['-euo', 'pipefail', '-c', script], project, {
        timeout: 60_000,
      })
      if (!/^url http:\/\/127\.0\.0\.1:\d+\/api\/v1$/m.test(out)) failures.push(`the CLI snippet printed ${JSON.stringify(out)}`)
    } catch (error) {
      failures.push(`the CLI snippet failed: ${error.stdout ?? ''}${error.stderr ?? error.message}`)
    }
  }

  step("the README's vitest plugin example, compiled and run as two test files")
  // Its blocks name their file on the first line (`// vitest.config.ts`, `// test/chat.test.ts`).
  const doc = readFileSync(process.env.PACKAGE_SMOKE_VITEST_DOC ?? join(root, 'README.md'), 'utf8')
  const named = [...doc.matchAll(/```ts\n\/\/ (\S+\.ts)\n([\s\S]*?)```/g)].map((m) => ({ path: m[1], text: `// ${m[1]}\n${m[2]}` }))
  const config = named.find((b) => b.path === 'vitest.config.ts' && b.text.includes('model-gateway-emulator/vitest'))
  const tests = named.filter((b) => b.path.endsWith('.test.ts') && b.text.includes('model-gateway-emulator/vitest'))
  if (!config || tests.length === 0) failures.push('the README has no vitest plugin example (a `// vitest.config.ts` block and a `// <name>.test.ts` block)')
  else {
    const files = [config, ...tests, ...tests.map((b) => ({ ...b, path: b.path.replace(/\.test\.ts$/, '.second.test.ts') }))]
    for (const file of files) {
      mkdirSync(dirname(join(project, file.path)), { recursive: true })
      writeFileSync(join(project, file.path), file.text)
    }
    // As a user's editor sees it: the example against the package's declarations (vitest's included).
    const vitestTsconfig = JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8'))
    writeFileSync(join(project, 'tsconfig.vitest.json'), JSON.stringify({ ...vitestTsconfig, include: files.map((file) => file.path) }, null, 2))
    try {
      run('npx', ['--no-install', 'tsc', '-p', 'tsconfig.vitest.json'], project)
    } catch (error) {
      failures.push(`tsc --strict failed on the README's vitest example:\n${error.stdout}${error.stderr}`)
    }
    const reportFile = join(project, 'vitest-report.json')
    try {
      run('npx', ['--no-install', 'vitest', 'run', '--reporter=json', `--outputFile=${reportFile}`], project, { timeout: 120_000 })
    } catch (error) {
      failures.push(`the README's vitest example failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`)
    }
    if (existsSync(reportFile)) {
      const report = JSON.parse(readFileSync(reportFile, 'utf8'))
      if (report.testResults.length !== 2 * tests.length || report.numFailedTests > 0 || report.numPassedTests === 0)
        failures.push(`the README's vitest example: ${report.testResults.length} files, ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
      else step(`${report.testResults.length} test files, ${report.numPassedTests} tests passed`)
    }
  }
} catch (error) {
  failures.push(`${error.message}\n${error.stdout ?? ''}${error.stderr ?? ''}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}

if (failures.length > 0) {
  console.error(`package smoke FAILED:\n- ${failures.join('\n- ')}`)
  process.exit(1)
}
console.log('package smoke: ok')
