// Import rules for src/, checked in CI (`npm run lint:deps`), type imports counted. The parser is swc:
// dependency-cruiser's TypeScript parser does not take TypeScript 7 yet.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type imports included: each file can be read (and changed) after what it imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-core',
      comment: 'core/ is the kernel under every area: it imports nothing of the emulator outside core/.',
      severity: 'error',
      from: { path: '^src/emulator/core/' },
      to: { path: '^src/', pathNot: '^src/emulator/core/' },
    },
    {
      name: 'media-imports-core',
      comment:
        'media/ holds the pure codecs and the worker pool that runs them: it imports nothing of the emulator outside core/ and media/, so its worker threads load no area.',
      severity: 'error',
      from: { path: '^src/emulator/media/' },
      to: { path: '^src/', pathNot: '^src/emulator/(core|media)/' },
    },
    {
      name: 'no-reaching-into-another-area',
      comment:
        'An area reaches another through its service (ctx.services) or its exported types, never through its SQL (*.repo.ts) or routes (*.routes.ts, *.admin.ts).',
      severity: 'error',
      from: { path: '^src/emulator/modules/([^/]+)/' },
      to: {
        path: '^src/emulator/modules/[^/]+/[^/]+[.](repo|routes|admin)[.]ts$',
        pathNot: ['^src/emulator/modules/$1/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'only-the-meter-bills',
      comment:
        "Prices become charges in one folder: only the meter (modules/meter/) reaches the ledger's writes (bill, admit, settle, refund), so every billed call is admitted, priced, billed and recorded the one way.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/emulator/modules/(meter|ledger)/' },
      to: { path: '^src/emulator/modules/ledger/ledger[.]service[.]ts$' },
    },
    {
      name: 'text-engine-imports-no-surface-nor-source',
      comment:
        'The text engine (modules/text) knows its surfaces (chat, Responses, Messages) and answer sources (recordings) only as they register with it (text.ports.ts): it imports none of their folders.',
      severity: 'error',
      from: { path: '^src/emulator/modules/text/' },
      to: { path: '^src/emulator/modules/(chat|responses|messages|recordings)/' },
    },
    {
      name: 'recordings-and-presets-import-no-text-surface',
      comment:
        "Record and replay and presets work on every text surface through what is registered with the text engine and what routes declare (config.text, recordable, presettable): they import no surface's folder.",
      severity: 'error',
      from: { path: '^src/emulator/modules/(recordings|presets)/' },
      to: { path: '^src/emulator/modules/(chat|responses|messages)/' },
    },
    {
      name: 'admin-types-is-a-leaf',
      comment:
        "admin/types.ts re-exports every area's admin shapes for the package's public types (index.ts, testing.ts, the vitest plugin) and the renderer: an area imports a shape from where it is defined, so the barrel lifts no area above another.",
      severity: 'error',
      from: { path: '^src/emulator/', pathNot: '^src/emulator/(index[.]ts|testing[.]ts|vitest/)' },
      to: { path: '^src/emulator/admin/types[.]ts$' },
    },
    {
      name: 'emulator-is-headless',
      comment: 'The emulator never imports the desktop app (Electron main or the renderer).',
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(main|renderer)/' },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
}
