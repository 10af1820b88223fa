// Renames files by a table (old path -> new path, from the repository's root) with `git mv`, and
// rewrites every relative import that points at a moved file in src/, test/ and scripts/ (`import ...
// from`, `export ... from`, `import '...'`, `import(...)`, `new URL('...', import.meta.url)`), the
// moved files' own imports included. Committed because it documents the move of issue 36 (every module
// file named `<area>.<role>.ts`, the video router's module named for what it is), and because it can be
// run again after a merge: an entry already applied or whose source is gone is skipped (and printed),
// and an import still naming an old path (from a branch merged since) is rewritten to the new one.
//
//   node scripts/rename-files.ts [--dry-run]
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

const M = 'src/emulator/modules'

/** Each area's files renamed to `<area>.<role>.ts` (or `<area>-<part>.<role>.ts` for one part of an area). */
export const RENAMES: readonly (readonly [from: string, to: string])[] = [
  // activity
  [`${M}/activity/demo.ts`, `${M}/activity/activity-demo.service.ts`],
  // analytics: the query is the area's service; the meta what it can compute
  [`${M}/analytics/analytics.query.ts`, `${M}/analytics/analytics.service.ts`],
  [`${M}/analytics/analytics.meta.ts`, `${M}/analytics/analytics-meta.service.ts`],
  // audio: two surfaces, speech and transcriptions
  [`${M}/audio/speech.service.ts`, `${M}/audio/audio-speech.service.ts`],
  [`${M}/audio/transcription.input.ts`, `${M}/audio/audio-transcription.input.ts`],
  [`${M}/audio/transcription.service.ts`, `${M}/audio/audio-transcription.service.ts`],
  // byok
  [`${M}/byok/secrets.ts`, `${M}/byok/byok-secrets.service.ts`],
  [`${M}/byok/workspace.ts`, `${M}/byok/byok-workspace.service.ts`],
  // catalog
  [`${M}/catalog/catalog.ts`, `${M}/catalog/catalog-index.service.ts`],
  [`${M}/catalog/catalog.rss.ts`, `${M}/catalog/catalog-rss.service.ts`],
  [`${M}/catalog/policy.ts`, `${M}/catalog/catalog-policy.service.ts`],
  [`${M}/catalog/providers.ts`, `${M}/catalog/catalog-providers.service.ts`],
  [`${M}/catalog/routing.ts`, `${M}/catalog/catalog-routing.service.ts`],
  // datasets: one part per dataset, the fixtures they are drawn from, the models as they name them
  [`${M}/datasets/apps.ts`, `${M}/datasets/datasets-apps.service.ts`],
  [`${M}/datasets/benchmarks.ts`, `${M}/datasets/datasets-benchmarks.service.ts`],
  [`${M}/datasets/classifications.ts`, `${M}/datasets/datasets-classifications.service.ts`],
  [`${M}/datasets/draws.ts`, `${M}/datasets/datasets-draws.service.ts`],
  [`${M}/datasets/models.ts`, `${M}/datasets/datasets.models.ts`],
  [`${M}/datasets/rankings.ts`, `${M}/datasets/datasets-rankings.service.ts`],
  [`${M}/datasets/session-cost.ts`, `${M}/datasets/datasets-session-cost.service.ts`],
  [`${M}/datasets/window.ts`, `${M}/datasets/datasets-window.service.ts`],
  // embeddings
  [`${M}/embeddings/vectors.ts`, `${M}/embeddings/embeddings-vectors.service.ts`],
  [`${M}/embeddings/vector-cache.ts`, `${M}/embeddings/embeddings-cache.service.ts`],
  // files
  [`${M}/files/files.content.ts`, `${M}/files/files-content.service.ts`],
  // images
  [`${M}/images/image-models.ts`, `${M}/images/images.models.ts`],
  [`${M}/images/images.views.ts`, `${M}/images/images-views.service.ts`],
  // observability
  [`${M}/observability/destination-types.ts`, `${M}/observability/observability-destinations.service.ts`],
  [`${M}/observability/observability.broadcast.ts`, `${M}/observability/observability-broadcast.service.ts`],
  [`${M}/observability/observability.filters.ts`, `${M}/observability/observability-filters.service.ts`],
  // organization
  [`${M}/organization/scim.directory.ts`, `${M}/organization/organization-scim.service.ts`],
  [`${M}/organization/workspace-scope.ts`, `${M}/organization/organization-workspace.service.ts`],
  // presets
  [`${M}/presets/presets.config.ts`, `${M}/presets/presets-config.service.ts`],
  // ratelimit
  [`${M}/ratelimit/ratelimit.ts`, `${M}/ratelimit/ratelimit.service.ts`],
  // recordings (recordings.hook.ts and recordings.proxy.ts keep their names while the meter rewrites them)
  [`${M}/recordings/recordings.answers.ts`, `${M}/recordings/recordings-answers.service.ts`],
  [`${M}/recordings/recordings.files.ts`, `${M}/recordings/recordings-files.service.ts`],
  [`${M}/recordings/recordings.format.ts`, `${M}/recordings/recordings-format.service.ts`],
  [`${M}/recordings/recordings.normal.ts`, `${M}/recordings/recordings-normal.service.ts`],
  [`${M}/recordings/recordings.parser.ts`, `${M}/recordings/recordings-parser.service.ts`],
  [`${M}/recordings/recordings.record.ts`, `${M}/recordings/recordings-recorder.service.ts`],
  [`${M}/recordings/recordings.skim.ts`, `${M}/recordings/recordings-skim.service.ts`],
  [`${M}/recordings/recordings.store.ts`, `${M}/recordings/recordings-replay.service.ts`],
  // rerank
  [`${M}/rerank/rerank.score.ts`, `${M}/rerank/rerank-score.service.ts`],
  // state: the document, its export and import
  [`${M}/state/state.ts`, `${M}/state/state.service.ts`],
  [`${M}/state/state.bounds.ts`, `${M}/state/state-bounds.service.ts`],
  [`${M}/state/state.export.ts`, `${M}/state/state-export.service.ts`],
  [`${M}/state/state.parse.ts`, `${M}/state/state-parse.service.ts`],
  [`${M}/state/state.rows.ts`, `${M}/state/state-rows.service.ts`],
  [`${M}/state/state.turns.ts`, `${M}/state/state-turns.service.ts`],
  // the video router's module (its asynchronous tasks, /router/v1), not the gateway's /videos
  [`${M}/video/video.admin.ts`, `${M}/video-router/video-router.admin.ts`],
  [`${M}/video/video.errors.ts`, `${M}/video-router/video-router.errors.ts`],
  [`${M}/video/video.models.ts`, `${M}/video-router/video-router.models.ts`],
  [`${M}/video/video.module.ts`, `${M}/video-router/video-router.module.ts`],
  [`${M}/video/video.repo.ts`, `${M}/video-router/video-router.repo.ts`],
  [`${M}/video/video.routes.ts`, `${M}/video-router/video-router.routes.ts`],
  [`${M}/video/video.schemas.ts`, `${M}/video-router/video-router.schemas.ts`],
  [`${M}/video/video.service.ts`, `${M}/video-router/video-router.service.ts`],
  [`${M}/video/video.validate.ts`, `${M}/video-router/video-router.input.ts`],
  [`${M}/videos/videos.validate.ts`, `${M}/videos/videos.input.ts`],
  // the gateway's surfaces' preset parts, the meter's pricers, the audio surface's billing
  [`${M}/audio/audio.billing.ts`, `${M}/audio/audio-billing.service.ts`],
  [`${M}/chat/chat.preset.ts`, `${M}/chat/chat-preset.service.ts`],
  [`${M}/messages/messages.preset.ts`, `${M}/messages/messages-preset.service.ts`],
  [`${M}/responses/responses.preset.ts`, `${M}/responses/responses-preset.service.ts`],
  [`${M}/meter/meter.pricers.ts`, `${M}/meter/meter-pricers.service.ts`],
  [`${M}/recordings/recordings.proxy.ts`, `${M}/recordings/recordings-proxy.service.ts`],
  [`${M}/recordings/recordings.source.ts`, `${M}/recordings/recordings-source.service.ts`],
  // the text engine (moved out of chat by issue 36)
  [`${M}/text/answer-cache.ts`, `${M}/text/text-answer-cache.service.ts`],
  [`${M}/text/fixtures.repo.ts`, `${M}/text/text-fixtures.repo.ts`],
  [`${M}/text/fixtures.schemas.ts`, `${M}/text/text-fixtures.schemas.ts`],
  [`${M}/text/fixtures.service.ts`, `${M}/text/text-fixtures.service.ts`],
  [`${M}/text/schema-filler.ts`, `${M}/text/text-schema-filler.service.ts`],
  [`${M}/text/schema-fit.ts`, `${M}/text/text-schema-fit.service.ts`],
  [`${M}/text/text-engine.ts`, `${M}/text/text-engine.service.ts`],
  [`${M}/text/text-stream.ts`, `${M}/text/text.stream.ts`],
  [`${M}/text/text.answer.ts`, `${M}/text/text-answer.service.ts`],
  [`${M}/text/text.pace.ts`, `${M}/text/text-pace.service.ts`],
  [`${M}/text/text.ports.ts`, `${M}/text/text-ports.service.ts`],
  [`${M}/video/video.config.ts`, `${M}/video-router/video-router.config.ts`],
  ['test/integration/video/video.contract.ts', 'test/integration/video-router/video-router.contract.ts'],
  ['test/integration/video/video.fuzz.ts', 'test/integration/video-router/video-router.fuzz.ts'],
  ['test/integration/video/video.test.ts', 'test/integration/video-router/video-router.test.ts'],
  ['test/integration/video/inline-images.load.test.ts', 'test/integration/video-router/inline-images.load.test.ts'],
  ['test/unit/video/video.validate.test.ts', 'test/unit/video-router/video-router.input.test.ts'],
  ['test/unit/video/video-images.test.ts', 'test/unit/video-router/video-images.test.ts'],
]

/**
 * Words in the code that follow a rename of a module (its service's key in `ctx.services`, the names
 * in `needs`): applied to every file in scope, each a no-op once done.
 */
export const REPLACEMENTS: readonly { readonly pattern: RegExp; readonly replacement: string }[] = [
  { pattern: /\bservices\.video\b(?!s)/g, replacement: "services['video-router']" },
  { pattern: /(\bneeds: \[[^\]]*)'video'/g, replacement: "$1'video-router'" },
]

/** A relative specifier in an import, an export, a dynamic import or a worker's URL. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)(['"])(\.\.?\/[^'"\n]+)\2/g

const SCOPE = ['src', 'test', 'scripts', 'docs']
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', '.git'])
const CODE = /\.(ts|tsx|mts|cts|mjs|cjs|js|md)$/

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path, out)
    else if (CODE.test(entry.name)) out.push(path)
  }
  return out
}

const posix = (path: string): string => path.split(sep).join('/')

/** `text` (the file at `from`, going to `to`) with each relative specifier pointing where its target now is. */
export function rewriteImports(text: string, from: string, to: string, renamed: ReadonlyMap<string, string>): string {
  return text.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const target = resolve(dirname(from), specifier)
    const moved = renamed.get(target) ?? target
    if (moved === target && from === to) return whole
    let path = posix(relative(dirname(to), moved))
    if (!path.startsWith('.')) path = `./${path}`
    return `${lead}${quote}${path}${quote}`
  })
}

function applyReplacements(text: string): string {
  return REPLACEMENTS.reduce((out, { pattern, replacement }) => out.replace(pattern, replacement), text)
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const lastTwo = (path: string): string => path.split('/').slice(-2).join('/')

/**
 * Mentions of a renamed file in comments and docs: as `<folder>/<file>.ts` anywhere, and by its bare
 * name in the files of its own folder (old or new) and of its area's test folders.
 */
export function rewriteMentions(text: string, file: string): string {
  let out = text
  const path = posix(relative(ROOT, file))
  for (const [from, to] of RENAMES) {
    if (!from.startsWith('src/')) continue
    out = out.replace(new RegExp(`(?<![\\w-])${escape(lastTwo(from))}(?![\\w-])`, 'g'), lastTwo(to))
    const folders = [dirname(from), dirname(to)].map((folder) => folder.split('/').at(-1)!)
    const near = folders.some((folder) => path.startsWith(`${M}/${folder}/`) || new RegExp(`^test/[a-z]+/${escape(folder)}/`).test(path))
    if (near) out = out.replace(new RegExp(`(?<![\\w./-])${escape(from.split('/').at(-1)!)}(?![\\w-])`, 'g'), to.split('/').at(-1)!)
  }
  return out
}

function main(dryRun: boolean): void {
  const moves = new Map<string, string>()
  const renamed = new Map<string, string>()
  let done = 0
  for (const [from, to] of RENAMES) {
    const [a, b] = [join(ROOT, from), join(ROOT, to)]
    const [hasA, hasB] = [existsSync(a), existsSync(b)]
    if (hasA && !hasB) {
      moves.set(a, b)
      renamed.set(a, b)
    } else if (!hasA && hasB) {
      renamed.set(a, b)
      done++
    } else if (!hasA) console.log(`skipped, its source is gone: ${from}`)
    else console.log(`skipped, both exist: ${from} and ${to}`)
  }

  const edits = new Map<string, string>()
  for (const file of SCOPE.flatMap((dir) => walk(join(ROOT, dir)))) {
    if (file === import.meta.filename) continue // its table names the old paths on purpose
    const text = readFileSync(file, 'utf8')
    const to = moves.get(file) ?? file
    const out = rewriteMentions(applyReplacements(rewriteImports(text, file, to, renamed)), to)
    if (out !== text) edits.set(to, out)
  }

  for (const [from, to] of moves) {
    console.log(`${dryRun ? 'would move' : 'moved'} ${posix(relative(ROOT, from))} -> ${posix(relative(ROOT, to))}`)
    if (dryRun) continue
    mkdirSync(dirname(to), { recursive: true })
    execFileSync('git', ['mv', from, to], { cwd: ROOT })
  }
  for (const [file, text] of edits) {
    console.log(`${dryRun ? 'would rewrite' : 'rewrote'} ${posix(relative(ROOT, file))}`)
    if (!dryRun) writeFileSync(file, text)
  }
  if (!dryRun) {
    // A folder left empty by the moves goes; one that still holds files is named (a file added since the table was written).
    for (const folder of new Set([...moves.keys()].map((path) => dirname(path)))) {
      if (!existsSync(folder) || !statSync(folder).isDirectory()) continue
      const left = readdirSync(folder)
      if (left.length === 0) rmdirSync(folder)
      else if (![...moves.values()].some((to) => dirname(to) === folder)) console.log(`still holds files: ${posix(relative(ROOT, folder))}: ${left.join(', ')}`)
    }
  }
  console.log(`${moves.size} moved, ${done} already moved, ${edits.size} files rewritten`)
  mentions()
}

/** Other files (docs, configurations) that still name an old path: for a person to reword. */
function mentions(): void {
  const names = RENAMES.map(([from]) => from.replace(/^src\/emulator\//, '')).filter((name) => !existsSync(join(ROOT, 'src/emulator', name)))
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
  for (const file of files) {
    if (!/\.(md|ts|tsx|mjs|cjs|json|yml|yaml)$/.test(file) || file === 'scripts/rename-files.ts' || !existsSync(join(ROOT, file))) continue
    const text = readFileSync(join(ROOT, file), 'utf8')
    const named = names.filter((name) => text.includes(name))
    if (named.length > 0) console.log(`still names ${named.join(', ')}: ${file}`)
  }
}

if (import.meta.main) main(process.argv.includes('--dry-run'))
