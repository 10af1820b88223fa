// The Activity view's charts and table over the last 30 completed UTC days: spend per day (stacked by
// model, or one model), requests per day, and a table by model.
import { useEffect, useMemo, useState } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { ActivityRow } from '../../api.ts'
import { usd } from '../../components/ui.tsx'
import { spendTicks, tickLabel } from './ticks.ts'

const DAY = 86_400_000
export const DAYS = 30
const PALETTE = Array.from({ length: 8 }, (_, i) => `--chart-${i + 1}`)
const OTHER = 'Other models'

/** CSS variables as values for SVG attributes, read again when the theme changes. */
function useCssVars(names: readonly string[]): Record<string, string> {
  const read = () => {
    const style = getComputedStyle(document.documentElement)
    return Object.fromEntries(names.map((n) => [n, style.getPropertyValue(n).trim()]))
  }
  const [values, setValues] = useState(read)
  const key = names.join()
  useEffect(() => {
    const observer = new MutationObserver(() => setValues(read()))
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] })
    return () => observer.disconnect()
  }, [key])
  return values
}

const dayLabel = (iso: string): string => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' })
const tokens = (n: number): string => n.toLocaleString('en')

interface Day {
  date: string
  label: string
  spend: Record<string, number>
  requests: Record<string, number>
  total: number
  count: number
}

export function ActivityCharts({ rows, now }: { rows: ActivityRow[]; now: string }) {
  const colors = useCssVars([...PALETTE, '--muted', '--line', '--accent', '--text'])
  const [model, setModel] = useState('')

  // Per model over the period, biggest spend first; beyond the palette's size, the rest are "Other models".
  const byModel = useMemo(() => {
    const map = new Map<
      string,
      { model: string; requests: number; usage: number; byok: number; prompt: number; completion: number; reasoning: number; providers: Set<string> }
    >()
    for (const r of rows) {
      const m = map.get(r.model) ?? { model: r.model, requests: 0, usage: 0, byok: 0, prompt: 0, completion: 0, reasoning: 0, providers: new Set<string>() }
      m.requests += r.requests
      m.usage += r.usage
      m.byok += r.byok_usage_inference
      m.prompt += r.prompt_tokens
      m.completion += r.completion_tokens
      m.reasoning += r.reasoning_tokens
      m.providers.add(r.provider_name)
      map.set(r.model, m)
    }
    return [...map.values()].sort((a, b) => b.usage - a.usage || b.requests - a.requests)
  }, [rows])
  const series = byModel.length > PALETTE.length ? [...byModel.slice(0, PALETTE.length - 1).map((m) => m.model), OTHER] : byModel.map((m) => m.model)
  const seriesOf = (name: string): string => (series.includes(name) ? name : OTHER)

  // Every one of the 30 completed days, empty ones included, oldest first.
  const days = useMemo(() => {
    const today = Math.floor(Date.parse(now) / DAY) * DAY
    const list: Day[] = []
    for (let t = today - DAYS * DAY; t < today; t += DAY) {
      const date = new Date(t).toISOString().slice(0, 10)
      list.push({ date, label: dayLabel(date), spend: {}, requests: {}, total: 0, count: 0 })
    }
    const index = new Map(list.map((d) => [d.date, d]))
    for (const r of rows) {
      if (model && r.model !== model) continue
      const day = index.get(r.date)
      if (!day) continue
      const s = model ? r.model : seriesOf(r.model)
      day.spend[s] = (day.spend[s] ?? 0) + r.usage
      day.requests[s] = (day.requests[s] ?? 0) + r.requests
      day.total += r.usage
      day.count += r.requests
    }
    return list
  }, [rows, now, model, series.join()])

  const shown = model ? [model] : series
  const color = (name: string): string => colors[PALETTE[model ? 0 : series.indexOf(name)] ?? PALETTE[0]!] ?? 'currentColor'
  const total = byModel.reduce((s, m) => s + m.usage, 0)
  const totalRequests = byModel.reduce((s, m) => s + m.requests, 0)
  const axis = { fill: colors['--muted'], fontSize: 11 }
  const tooltip = {
    contentStyle: { background: 'var(--panel)', border: '1px solid var(--line)', borderRadius: 6, color: 'var(--text)', fontSize: 12 },
    labelStyle: { color: 'var(--text)', fontWeight: 600 },
    cursor: { fill: 'color-mix(in srgb, var(--muted) 12%, transparent)' },
  }
  const first = days[0]!.date
  const last = days.at(-1)!.date
  // Ticks chosen here, not by the chart: a few cents a day needs more decimals than a few dollars.
  const ticks = spendTicks(Math.max(...days.map((d) => d.total)))
  const labelWidth = Math.max(...ticks.values.map((v) => tickLabel(v, ticks.decimals).length))

  return (
    <>
      <section className="panel" aria-labelledby="activity-summary">
        <div className="row">
          <h3 id="activity-summary" className="panel-title grow">
            {dayLabel(first)} – {dayLabel(last)} <span className="muted">(the last {DAYS} completed UTC days; today shows tomorrow)</span>
          </h3>
          <label>
            Model
            <select value={model} onChange={(e) => setModel(e.target.value)}>
              <option value="">All models (stacked)</option>
              {byModel.map((m) => (
                <option key={m.model} value={m.model}>
                  {m.model}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="stats">
          <div>
            <span className="muted">Spend</span>
            <strong>{usd(model ? days.reduce((s, d) => s + d.total, 0) : total)}</strong>
          </div>
          <div>
            <span className="muted">Requests</span>
            <strong>{tokens(model ? days.reduce((s, d) => s + d.count, 0) : totalRequests)}</strong>
          </div>
          <div>
            <span className="muted">Models</span>
            <strong>{model ? 1 : byModel.length}</strong>
          </div>
        </div>

        <figure className="chart" aria-labelledby="spend-chart-title">
          <figcaption id="spend-chart-title">Spend per day (USD){model ? `: ${model}` : ', by model'}</figcaption>
          <ResponsiveContainer width="100%" height={280}>
            <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke={colors['--line']} />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={{ stroke: colors['--line'] }} interval="preserveStartEnd" minTickGap={12} />
              <YAxis
                tick={axis}
                tickLine={false}
                axisLine={false}
                width={Math.max(56, labelWidth * 7 + 8)}
                ticks={ticks.values}
                domain={[0, ticks.values.at(-1)!]}
                interval={0}
                tickFormatter={(v: number) => tickLabel(v, ticks.decimals)}
              />
              <Tooltip {...tooltip} formatter={(v) => usd(Number(v))} itemSorter={(item) => -Number(item.value ?? 0)} />
              <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
              {shown.map((name) => (
                <Bar key={name} name={name} dataKey={(d: Day) => d.spend[name] ?? 0} stackId="spend" fill={color(name)} isAnimationActive={false} />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </figure>

        <figure className="chart" aria-labelledby="requests-chart-title">
          <figcaption id="requests-chart-title">Requests per day{model ? `: ${model}` : ''}</figcaption>
          <ResponsiveContainer width="100%" height={200}>
            <LineChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke={colors['--line']} />
              <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={{ stroke: colors['--line'] }} interval="preserveStartEnd" minTickGap={12} />
              <YAxis tick={axis} tickLine={false} axisLine={false} width={56} allowDecimals={false} />
              <Tooltip {...tooltip} cursor={{ stroke: colors['--line'] }} />
              <Line
                name="Requests"
                dataKey="count"
                type="linear"
                stroke={model ? color(model) : colors['--accent']}
                strokeWidth={2}
                dot={{ r: 2 }}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </figure>
      </section>

      <section className="panel" aria-labelledby="by-model-title">
        <h3 id="by-model-title" className="panel-title">
          By model
        </h3>
        <table aria-labelledby="by-model-title">
          <thead>
            <tr>
              <th>Model</th>
              <th>Providers</th>
              <th className="num">Requests</th>
              <th className="num">Spend</th>
              <th className="num">Share</th>
              <th className="num">Prompt tokens</th>
              <th className="num">Completion tokens</th>
              <th className="num">Reasoning tokens</th>
              <th className="num">BYOK</th>
            </tr>
          </thead>
          <tbody>
            {byModel.map((m) => (
              <tr key={m.model} aria-selected={m.model === model}>
                <td className="nowrap">
                  <span className="swatch" style={{ background: color(seriesOf(m.model)) }} aria-hidden="true" />
                  <span className="mono">{m.model}</span>
                </td>
                <td>{[...m.providers].join(', ')}</td>
                <td className="num">{tokens(m.requests)}</td>
                <td className="num">{usd(m.usage)}</td>
                <td className="num">{total > 0 ? `${((m.usage / total) * 100).toFixed(1)}%` : '—'}</td>
                <td className="num">{tokens(m.prompt)}</td>
                <td className="num">{tokens(m.completion)}</td>
                <td className="num">{tokens(m.reasoning)}</td>
                <td className="num">{m.byok > 0 ? usd(m.byok) : <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th>Total</th>
              <th />
              <th className="num">{tokens(totalRequests)}</th>
              <th className="num">{usd(total)}</th>
              <th className="num">{total > 0 ? '100%' : '—'}</th>
              <th className="num">{tokens(byModel.reduce((s, m) => s + m.prompt, 0))}</th>
              <th className="num">{tokens(byModel.reduce((s, m) => s + m.completion, 0))}</th>
              <th className="num">{tokens(byModel.reduce((s, m) => s + m.reasoning, 0))}</th>
              <th className="num">{usd(byModel.reduce((s, m) => s + m.byok, 0))}</th>
            </tr>
          </tfoot>
        </table>
      </section>
    </>
  )
}
