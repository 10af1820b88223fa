// The Playground's request options: temperature, max tokens, seed, streaming, function tools (JSON)
// and the tool choice among them.
import { useId } from 'react'
import { TOOLS_EXAMPLE, type Options, type ParsedTools } from './conversation.ts'

export function PlaygroundOptions({
  options,
  onChange: set,
  tools,
  toolChoice,
}: {
  options: Options
  onChange: (patch: Partial<Options>) => void
  tools: ParsedTools
  /** The choice as it will be sent ('' for none). */
  toolChoice: string
}) {
  const ids = useId()
  return (
    <>
      <div className="field-grid">
        <div className="field">
          <label htmlFor={`${ids}-temperature`}>Temperature</label>
          <input
            id={`${ids}-temperature`}
            type="number"
            min={0}
            max={2}
            step={0.1}
            value={options.temperature}
            onChange={(e) => set({ temperature: e.target.value })}
            placeholder="default"
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-max`}>Max tokens</label>
          <input
            id={`${ids}-max`}
            type="number"
            min={1}
            step={1}
            value={options.maxTokens}
            onChange={(e) => set({ maxTokens: e.target.value })}
            placeholder="default"
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-seed`}>Seed</label>
          <input id={`${ids}-seed`} type="number" step={1} value={options.seed} onChange={(e) => set({ seed: e.target.value })} placeholder="none" />
        </div>
      </div>
      <label className="check">
        <input type="checkbox" checked={options.stream} onChange={(e) => set({ stream: e.target.checked })} />
        Stream
      </label>
      <div className="field">
        <label htmlFor={`${ids}-tools`}>Tools (JSON)</label>
        <textarea
          id={`${ids}-tools`}
          rows={4}
          className="mono"
          value={options.tools}
          onChange={(e) => set({ tools: e.target.value })}
          placeholder={TOOLS_EXAMPLE}
          aria-invalid={tools.problem !== null}
          aria-describedby={`${ids}-tools-help`}
        />
        <span id={`${ids}-tools-help`} className={tools.problem ? 'error small-print' : 'muted small-print'}>
          {tools.problem ?? (
            <>
              A JSON array of function tools.{' '}
              <button type="button" className="link-button" onClick={() => set({ tools: TOOLS_EXAMPLE })}>
                Use an example
              </button>
            </>
          )}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-choice`}>Tool choice</label>
        <select id={`${ids}-choice`} value={toolChoice} onChange={(e) => set({ toolChoice: e.target.value })} disabled={tools.names.length === 0}>
          <option value="">(not sent: auto with tools)</option>
          <option value="auto">auto</option>
          <option value="none">none</option>
          <option value="required">required</option>
          {tools.names.map((name) => (
            <option key={name} value={`function:${name}`}>
              function {name}
            </option>
          ))}
        </select>
      </div>
    </>
  )
}
