// One model of the catalog: what it is (context, modalities, limits), its prices (per million tokens
// or per thing, with any conditional prices such as long-context tiers), the parameters it takes,
// and its endpoints: the providers that serve it, each with its own limits and prices.
import type { CatalogEndpoint, CatalogModel } from '../../api.ts'
import { CopyButton } from '../../components/ui.tsx'
import { overrideCondition, overridesOf, priceLines, tokensText } from './models.ts'

const tokens = (n: number | null) => (n === null ? 'not stated' : `${n.toLocaleString('en-US')} tokens`)
const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10)

/** The prices a pricing object sets, then each conditional price and what it changes. */
function Prices({ pricing, label }: { pricing: CatalogModel['pricing']; label: string }) {
  const lines = priceLines(pricing)
  const overrides = overridesOf(pricing)
  return (
    <>
      <table className="prices" aria-label={label}>
        <tbody>
          {lines.map((line) => (
            <tr key={line.key}>
              <th scope="row">{line.label}</th>
              <td>{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {overrides.length > 0 && (
        <ul className="overrides" aria-label={`${label}: conditional prices`}>
          {overrides.map((o, i) => (
            <li key={i}>
              <strong>{overrideCondition(o)}:</strong>{' '}
              {priceLines(o)
                .map((l) => `${l.label.toLowerCase()} ${l.text}`)
                .join(', ')}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

function Endpoint({ endpoint: e }: { endpoint: CatalogEndpoint }) {
  const uptime = e.uptime_last_30m === null ? 'no data' : `${e.uptime_last_30m}%`
  return (
    <section className="endpoint" aria-label={`Endpoint: ${e.provider_name}`}>
      <h5>
        {e.provider_name} <span className="mono muted">{e.tag}</span>
        {e.status < 0 && <span className="badge warn">degraded ({e.status})</span>}
      </h5>
      <dl className="facts">
        <dt>Context</dt>
        <dd>{tokens(e.context_length)}</dd>
        <dt>Max output</dt>
        <dd>{tokens(e.max_completion_tokens)}</dd>
        <dt>Quantization</dt>
        <dd>{e.quantization ?? 'not stated'}</dd>
        <dt>Uptime (30 min)</dt>
        <dd>{uptime}</dd>
        <dt>Regions</dt>
        <dd>
          {e.regions.join(', ') || 'none'}
          {e.zdr && ', zero data retention'}
        </dd>
      </dl>
      <Prices pricing={e.pricing} label={`${e.provider_name} prices`} />
    </section>
  )
}

export function ModelDetail({ model: m }: { model: CatalogModel }) {
  const { architecture: a } = m
  return (
    <>
      <h3 className="detail-title">{m.name}</h3>
      <div className="row">
        <code className="mono">{m.id}</code>
        <CopyButton text={m.id} label="Copy id" />
      </div>
      {m.description && <p className="description">{m.description}</p>}
      <dl className="facts">
        <dt>Context</dt>
        <dd>
          {tokens(m.context_length)} ({tokensText(m.context_length)})
        </dd>
        <dt>Max output</dt>
        <dd>{tokens(m.top_provider.max_completion_tokens)}</dd>
        <dt>Input</dt>
        <dd>{a.input_modalities.join(', ')}</dd>
        <dt>Output</dt>
        <dd>{a.output_modalities.join(', ')}</dd>
        <dt>Tokenizer</dt>
        <dd>{a.tokenizer}</dd>
        <dt>Added</dt>
        <dd>{day(m.created)}</dd>
        {m.knowledge_cutoff !== null && (
          <>
            <dt>Knowledge cutoff</dt>
            <dd>{m.knowledge_cutoff}</dd>
          </>
        )}
        {m.embedding_dimensions !== null && (
          <>
            <dt>Embedding size</dt>
            <dd>{m.embedding_dimensions} dimensions</dd>
          </>
        )}
        {m.supported_voices !== null && (
          <>
            <dt>Voices</dt>
            <dd>{m.supported_voices.join(', ')}</dd>
          </>
        )}
      </dl>

      <h4>Prices</h4>
      <Prices pricing={m.pricing} label="Prices" />

      <h4>Supported parameters</h4>
      {m.supported_parameters.length === 0 ? (
        <p className="muted">None listed.</p>
      ) : (
        <ul className="params" aria-label="Supported parameters">
          {m.supported_parameters.map((p) => (
            <li key={p} className="mono">
              {p}
            </li>
          ))}
        </ul>
      )}

      <h4>
        Endpoints <span className="muted">({m.endpoints.length})</span>
      </h4>
      {m.endpoints.map((e) => (
        <Endpoint key={e.id} endpoint={e} />
      ))}
    </>
  )
}
