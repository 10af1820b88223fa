// The whole state's controls in the Data view: seed presets, reset, export and import, each replacing
// everything after a confirmation; every query is read again after.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { api } from '../../api.ts'
import { ErrorText, useConfirm } from '../../components/ui.tsx'

const PRESETS = [
  { id: 'default', label: 'Default', hint: 'one account, seven keys, no usage' },
  { id: 'empty', label: 'Empty', hint: 'no accounts at all' },
  { id: 'demo', label: 'Demo', hint: 'the default account with 30 days of usage' },
] as const

/** The tables worth naming after an import, as a person would count them. */
const IMPORTED: Record<string, string> = {
  accounts: 'account',
  api_keys: 'API key',
  usage: 'usage record',
  guardrails: 'guardrail',
  charges: 'charge',
  video_tasks: 'video task',
  fault_rules: 'fault rule',
}

export function StatePanel() {
  const client = useQueryClient()
  const [message, setMessage] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const confirm = useConfirm()
  const action = useMutation({
    mutationFn: async (run: () => Promise<string>) => run(),
    onMutate: () => setMessage(null),
    onSuccess: (done) => setMessage(done),
    onSettled: () => client.invalidateQueries(),
  })

  const seed = (preset: (typeof PRESETS)[number]) => {
    const name = preset.label.toLowerCase()
    confirm.ask({
      title: `Load the ${name} preset?`,
      message: `The ${name} preset (${preset.hint}) replaces the whole state: accounts, keys, usage, tasks and charges.`,
      confirm: `Load ${name} preset`,
      onConfirm: () =>
        action.mutate(async () => {
          await api.state.seed(preset.id)
          return `Loaded the ${name} preset.`
        }),
    })
  }
  const reset = () =>
    confirm.ask({
      title: 'Reset the emulator?',
      message: 'Everything goes back to the seed; usage, tasks, charges and new accounts are lost.',
      confirm: 'Reset emulator',
      danger: true,
      onConfirm: () =>
        action.mutate(async () => {
          await api.state.reset()
          return 'The emulator is back to its seed.'
        }),
    })
  const importFile = (file: File) => {
    const clear = () => {
      if (fileInput.current) fileInput.current.value = ''
    }
    confirm.ask({
      title: `Import ${file.name}?`,
      message: 'It replaces the whole state.',
      confirm: 'Import',
      onCancel: clear,
      onConfirm: () => load(file, clear),
    })
  }
  const load = (file: File, clear: () => void) =>
    action.mutate(async () => {
      try {
        const text = await file.text()
        let document: unknown
        try {
          document = JSON.parse(text)
        } catch {
          throw new Error(`${file.name} is not JSON: choose a file saved with "Export state".`)
        }
        const { tables } = await api.state.import(document)
        const counts = Object.entries(IMPORTED)
          .filter(([table]) => (tables[table] ?? 0) > 0)
          .map(([table, noun]) => `${tables[table]} ${noun}${tables[table] === 1 ? '' : 's'}`)
        return `Imported ${file.name}${counts.length ? `: ${counts.join(', ')}` : ''}.`
      } finally {
        clear()
      }
    })

  return (
    <section className="panel" aria-labelledby="state-title">
      <h3 id="state-title" className="panel-title">
        Emulator state
      </h3>
      <div className="row state-actions">
        {/* Each button is named by its visible text (WCAG label in name); the group says they are presets, the title describes each. */}
        <div className="row" role="group" aria-labelledby="presets-label">
          <span className="muted" id="presets-label">
            Load a preset:
          </span>
          {PRESETS.map((p) => (
            <button key={p.id} type="button" className="secondary" disabled={action.isPending} onClick={() => seed(p)} title={p.hint}>
              {p.label}
            </button>
          ))}
        </div>
        <span className="divider" aria-hidden="true" />
        <a className="button secondary" href={api.state.exportUrl} download="emulator-state.json">
          Export state
        </a>
        <label className="button secondary file-button">
          Import state…
          <input
            ref={fileInput}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            disabled={action.isPending}
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) importFile(file)
            }}
          />
        </label>
        <span className="grow" />
        <button type="button" className="danger" disabled={action.isPending} onClick={reset}>
          Reset emulator
        </button>
      </div>
      <p className="muted note">An export contains every API key's token: treat the file like a secret.</p>
      {action.isPending && <p className="muted">Working…</p>}
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      <ErrorText error={action.error} />
      {confirm.dialog}
    </section>
  )
}
