// The Models view's filters: words of the id or name, author, input and output modality, the highest
// prompt price, the smallest context, free only (models.ts says what each keeps). Every field is
// labelled; the choices come from the catalog, each with how many models have it.
import { memo, useId, useMemo, type ReactNode } from 'react'
import { CONTEXT_FLOORS, filterChoices, isFiltered, NO_FILTERS, priceLimit, tokensText, type Choice, type ModelFilters, type ModelRow } from './models.ts'

/** A select's options, the same on every keystroke (a catalog has a hundred authors): rendered once per catalog. */
const ChoiceOptions = memo(function ChoiceOptions({ choices }: { choices: Choice[] }) {
  return choices.map((c) => (
    <option key={c.value} value={c.value}>
      {c.value} ({c.count})
    </option>
  ))
})

/**
 * A label beside its control, tied by id rather than wrapped around it, so the control's name is the
 * label alone (a wrapping label would take in a select's every option).
 */
function Field({ label, title, children }: { label: string; title?: string; children: (id: string) => ReactNode }) {
  const id = useId()
  return (
    <span className="field" title={title}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </span>
  )
}

export const ModelFilterForm = memo(function ModelFilterForm({
  rows,
  filters,
  onChange,
}: {
  rows: readonly ModelRow[]
  filters: ModelFilters
  onChange: (filters: ModelFilters) => void
}) {
  const ids = useId()
  const choices = useMemo(() => filterChoices(rows), [rows])
  const set = (patch: Partial<ModelFilters>) => onChange({ ...filters, ...patch })
  const badPrice = filters.maxPrompt.trim() !== '' && priceLimit(filters.maxPrompt) === null
  return (
    <form className="row filters" role="search" aria-label="Filter models" onSubmit={(e) => e.preventDefault()}>
      <Field label="Search">
        {(id) => (
          <input
            id={id}
            type="search"
            name="text"
            value={filters.text}
            placeholder="id or name, e.g. gpt 4o"
            onChange={(e) => set({ text: e.target.value })}
            size={22}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      <Field label="Author">
        {(id) => (
          <select id={id} name="author" value={filters.author} onChange={(e) => set({ author: e.target.value })}>
            <option value="">Any author</option>
            <ChoiceOptions choices={choices.authors} />
          </select>
        )}
      </Field>
      <Field label="Input">
        {(id) => (
          <select id={id} name="input" value={filters.input} onChange={(e) => set({ input: e.target.value })}>
            <option value="">Any input</option>
            <ChoiceOptions choices={choices.inputs} />
          </select>
        )}
      </Field>
      <Field label="Output">
        {(id) => (
          <select id={id} name="output" value={filters.output} onChange={(e) => set({ output: e.target.value })}>
            <option value="">Any output</option>
            <ChoiceOptions choices={choices.outputs} />
          </select>
        )}
      </Field>
      <Field label="Max prompt $/M tokens" title="The highest prompt (input) price, in US dollars per million tokens">
        {(id) => (
          <input
            id={id}
            type="text"
            name="maxPrompt"
            inputMode="decimal"
            value={filters.maxPrompt}
            placeholder="any"
            onChange={(e) => set({ maxPrompt: e.target.value })}
            size={6}
            aria-invalid={badPrice || undefined}
            aria-describedby={badPrice ? `${ids}-price-problem` : undefined}
          />
        )}
      </Field>
      {badPrice && (
        <span id={`${ids}-price-problem`} className="error" role="alert">
          Not a price: type dollars, e.g. 0.5
        </span>
      )}
      <Field label="Min context">
        {(id) => (
          <select id={id} name="minContext" value={filters.minContext} onChange={(e) => set({ minContext: Number(e.target.value) })}>
            <option value={0}>Any context</option>
            {CONTEXT_FLOORS.map((n) => (
              <option key={n} value={n}>
                {tokensText(n)}+ tokens
              </option>
            ))}
          </select>
        )}
      </Field>
      <label>
        <input type="checkbox" name="freeOnly" checked={filters.freeOnly} onChange={(e) => set({ freeOnly: e.target.checked })} />
        Free only
      </label>
      {isFiltered(filters) && (
        <button type="button" className="secondary small" onClick={() => onChange(NO_FILTERS)}>
          Reset filters
        </button>
      )}
    </form>
  )
})
