// Record and replay: the recordings of the --replay folder answer matching requests (text ones through
// the text engine, the others through the hook, recordings.hook.ts), a request none answers gets what
// --on-miss says (a generated answer, the --upstream gateway's, or an error), and the upstream's answers
// are saved with --record. The recordings live in memory: `times` counts per process, a reset gives
// the uses back, and no table holds them.
import type { OnMiss } from '../../core/types.ts'
import type { TextAsk } from '../text/text-engine.service.ts'
import type { EmulatorContext } from '../module.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { MAX_DEPTH, MAX_FILE_BYTES, MAX_FILES, MAX_FOLDER_BYTES } from './recordings-files.service.ts'
import { recordingsAdminRoutes } from './recordings.admin.ts'
import type { RecordingView } from './recordings.schemas.ts'
import { noRecording, problemLine, RecordingsError, reloadRefused } from './recordings.errors.ts'
import { RECORDINGS_CONFIG, onMissOf } from './recordings.config.ts'
import { installRecordingsHook } from './recordings.hook.ts'
import { TEXT_OPERATIONS } from './recordings-format.service.ts'
import type { RawOperation } from './recordings-normal.service.ts'
import { recordingsSource, type RecordedTextAnswer } from './recordings-source.service.ts'
import { upstreamSource } from './recordings-proxy.service.ts'
import { loadFolder, loadFolderAsync, rawAnswerOf, RecordingSet, textAnswerOf, watchFolder, type RecordedRawAnswer } from './recordings-replay.service.ts'

export interface RecordingsService {
  /** The --replay folder, as given; null without one. */
  readonly folder: string | null
  /** What a request no recording answers gets. */
  readonly onMiss: OnMiss
  /** The first recording (in name order, with uses left) that answers a text ask, through any text operation. */
  findText(ask: TextAsk, header: string | null): RecordedTextAnswer | null
  /** The first recording of `operation` that answers its body. */
  findRaw(operation: RawOperation, body: unknown, header: string | null): RecordedRawAnswer | null
  /** Whether a text recording may answer a model (which the catalog may lack). */
  answersModel(id: string): boolean
  /** Whether the file still has uses left (checked in the billing transaction). */
  usable(file: string): boolean
  /** Counts one use of the file: an answer it gave was billed. */
  use(file: string): void
  /** A text ask no recording answered: the no-match error under --on-miss error; nothing otherwise. */
  missed(ask: TextAsk): void
  list(): RecordingView[]
  /** Reads the folder again (off the event loop); a malformed file keeps the loaded set and is a 400 naming it. */
  reload(): Promise<void>
  /** Gives every recording its uses back (a reset of the emulator's state). */
  restoreUses(): void
  close(): void
}

declare module '../module.ts' {
  interface Services {
    recordings: RecordingsService
  }
}

function createRecordings(ctx: EmulatorContext): RecordingsService {
  const folder = ctx.config.replay
  const set = new RecordingSet()
  const find = (id: string) => ctx.services.catalog.get().find(id)
  let closed = false
  // Readings of the folder run one after another, so an earlier reading never replaces a later one.
  let turn: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(load: () => Promise<T>): Promise<T> => {
    const run = turn.then(load)
    turn = run.catch(() => undefined)
    return run
  }
  const reload = (): Promise<void> =>
    inTurn(async () => {
      if (folder === null) return
      const loaded = await loadFolderAsync(folder)
      if (loaded.problems.length > 0) throw reloadRefused(loaded.problems, set.size)
      set.replace(loaded.recordings)
    })
  let watcher: { close(): void } | null = null
  if (folder !== null) {
    // A malformed file refuses the start, naming the file and the field. Read synchronously: nothing
    // is served yet, and the reading is bounded as a reload's is (recordings-files.service.ts).
    const loaded = loadFolder(folder)
    if (loaded.problems.length > 0) throw new RecordingsError(folder, loaded.problems)
    set.replace(loaded.recordings)
    /** A change seen while a reading waits its turn is read by that reading. */
    let waiting = false
    const changed = (): void => {
      if (waiting) return
      waiting = true
      inTurn(async () => {
        waiting = false
        const loaded = await loadFolderAsync(folder)
        if (closed) return
        if (loaded.problems.length > 0)
          ctx.warn(`--replay ${folder}: not reloaded, the ${set.size} recordings loaded before stay in use: ${problemLine(loaded.problems[0]!)}`)
        else {
          set.replace(loaded.recordings)
          // An open inspector follows the folder as it follows a reload through the admin API.
          ctx.events.emit('admin.changed', { operation: 'admin.recordings.reload' })
        }
      }).catch((error: unknown) => ctx.warn(`--replay ${folder}: not reloaded (${error instanceof Error ? error.message : String(error)})`))
    }
    watcher = watchFolder(folder, changed, ctx.warn)
  }
  const onMiss = onMissOf(ctx.config)
  // A recording file names the operation it was recorded through: every text surface must be one the format knows.
  for (const surface of ctx.services.text.ports.surfaces())
    if (!(TEXT_OPERATIONS as readonly string[]).includes(surface.operation))
      throw new Error(`text surface ${surface.name}: recordings-format.service.ts has no text operation ${surface.operation}`)
  const findText = (ask: TextAsk, header: string | null): RecordedTextAnswer | null => {
    // A text recording answers every text operation: the operation does not narrow the search.
    const recording = set.findText(ask, header)
    return recording ? textAnswerOf(find, recording, ask) : null
  }
  ctx.services.text.ports.registerSource(recordingsSource(ctx))
  if (onMiss === 'upstream') ctx.services.text.ports.registerSource(upstreamSource(ctx))
  return {
    folder,
    onMiss,
    findText,
    findRaw(operation, body, header) {
      const found = set.findRaw(operation, body, header)
      return found ? rawAnswerOf(find, found, body) : null
    },
    answersModel: (id) => set.answersModel(id),
    usable: (file) => set.usable(file),
    use: (file) => set.use(file),
    missed(ask) {
      if (onMiss !== 'error') return
      throw noRecording(ask.candidates[0] ?? null, ask.messages.findLast((m) => m.role === 'user')?.text ?? null)
    },
    list: () => set.list(),
    reload,
    restoreUses: () => set.restoreUses(),
    close() {
      closed = true
      watcher?.close()
    },
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: 'Bytes of one recording file, written or read (an upstream answer larger than this is relayed, not saved)',
    value: MAX_FILE_BYTES,
    unit: 'bytes',
    beyond: '--record relays it and says why in the journal and the log; --replay refuses the file, naming it',
  },
  { what: 'Recording files in one folder', value: MAX_FILES, unit: 'items', beyond: '--record stops saving (saying why); --replay refuses the folder' },
  { what: "Bytes of one folder's recordings", value: MAX_FOLDER_BYTES, unit: 'bytes', beyond: 'as above' },
  { what: 'Folders deep under the replay folder', value: MAX_DEPTH, unit: 'levels', beyond: 'deeper folders are not read' },
]

export const recordingsModule = defineModule({
  name: 'recordings',
  config: RECORDINGS_CONFIG,
  limits: LIMITS,
  needs: ['audio', 'catalog', 'journal', 'meter', 'text'],
  create: createRecordings,
  state: (ctx) => [
    {
      name: 'recordings',
      tables: [],
      afterStateChange: (change) => {
        if (change === 'reset') ctx.services.recordings.restoreUses()
      },
    },
  ],
  // Last, just before the handler: after the faults (a rule answers before any replay) and after the
  // authentication's own preHandler (a revoked key is refused first). None attached when nothing is configured.
  hooks: [{ stage: 'preHandler', order: 10, install: installRecordingsHook }],
  admin: recordingsAdminRoutes,
})
