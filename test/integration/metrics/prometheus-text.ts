// A strict reader of the Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/), for the tests of GET /metrics: it
// throws, naming the line, on anything the format does not allow, and on what Prometheus would reject
// when it ingests a scrape (a sample of an undeclared family, a family split in two, a series given
// twice, histogram buckets that are not cumulative or lack +Inf).

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'

export interface Sample {
  /** The sample's own name (`x_bucket`, `x_sum` for a histogram `x`). */
  name: string
  labels: Record<string, string>
  value: number
}

export interface Family {
  name: string
  help: string | null
  type: MetricType
  samples: Sample[]
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped'])
/** What a sample name adds to its family's, by the family's type. */
const SUFFIXES: Partial<Record<MetricType, readonly string[]>> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] }

function parseValue(text: string, where: string): number {
  if (text === '+Inf') return Infinity
  if (text === '-Inf') return -Infinity
  if (text === 'NaN') return NaN
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: ${JSON.stringify(text)} is not a sample value`)
  return Number(text)
}

/** A HELP line's text: only `\\` and `\n` are escapes there. */
function unescapeHelp(text: string, where: string): string {
  return text.replace(/\\(.?)/g, (_, next: string) => {
    if (next === '\\') return '\\'
    if (next === 'n') return '\n'
    throw new Error(`${where}: HELP holds an unknown escape \\${next}`)
  })
}

/** Reads `{name="value",...}` at `start` (the `{`); returns the labels and the index after `}`. */
function readLabels(line: string, start: number, where: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {}
  let i = start + 1
  for (;;) {
    if (line[i] === '}') return { labels, end: i + 1 }
    const equals = line.indexOf('=', i)
    if (equals < 0) throw new Error(`${where}: a label without =`)
    const name = line.slice(i, equals)
    if (!LABEL_NAME.test(name)) throw new Error(`${where}: ${JSON.stringify(name)} is not a label name`)
    if (name in labels) throw new Error(`${where}: label ${name} given twice`)
    if (line[equals + 1] !== '"') throw new Error(`${where}: label ${name}'s value is not quoted`)
    let value = ''
    i = equals + 2
    for (;;) {
      const c = line[i]
      if (c === undefined) throw new Error(`${where}: label ${name}'s value is not closed`)
      if (c === '"') break
      if (c === '\\') {
        const next = line[i + 1]
        if (next === '\\' || next === '"') value += next
        else if (next === 'n') value += '\n'
        else throw new Error(`${where}: label ${name}'s value holds an unknown escape \\${next ?? ''}`)
        i += 2
      } else {
        value += c
        i += 1
      }
    }
    labels[name] = value
    i += 1
    if (line[i] === ',') i += 1
    else if (line[i] !== '}') throw new Error(`${where}: expected , or } after label ${name}`)
  }
}

const seriesKey = (name: string, labels: Record<string, string>, without?: string): string =>
  `${name}{${Object.keys(labels)
    .filter((k) => k !== without)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',')}}`

/** Checks each histogram series: buckets in increasing `le`, cumulative, ending at +Inf with the series' count, and a sum. */
function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>()
  for (const sample of family.samples) {
    const key = seriesKey(family.name, sample.labels, 'le')
    const entry = series.get(key) ?? { buckets: [] }
    series.set(key, entry)
    if (sample.name.endsWith('_bucket')) {
      const le = sample.labels.le
      if (le === undefined) throw new Error(`${key}: a bucket without le`)
      entry.buckets.push([parseValue(le, key), sample.value])
    } else if (sample.name.endsWith('_count')) entry.count = sample.value
    else if (sample.name.endsWith('_sum')) entry.sum = sample.value
    else throw new Error(`${key}: ${sample.name} is no sample of a histogram`)
  }
  for (const [key, { buckets, count, sum }] of series) {
    if (count === undefined || sum === undefined) throw new Error(`${key}: a histogram series without _count or _sum`)
    for (let b = 1; b < buckets.length; b++) {
      if (!(buckets[b]![0] > buckets[b - 1]![0])) throw new Error(`${key}: buckets not in increasing le`)
      if (buckets[b]![1] < buckets[b - 1]![1]) throw new Error(`${key}: buckets not cumulative`)
    }
    const last = buckets.at(-1)
    if (!last || last[0] !== Infinity) throw new Error(`${key}: no le="+Inf" bucket`)
    if (last[1] !== count) throw new Error(`${key}: the +Inf bucket (${last[1]}) is not the count (${count})`)
  }
}

/** The families of an exposition, by name; throws on the first thing the format does not allow. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition does not end with a line break')
  const families = new Map<string, Family>()
  const helps = new Map<string, string>()
  const seen = new Set<string>()
  const closed = new Set<string>()
  let current: Family | null = null
  const lines = text.split('\n')
  lines.pop()
  lines.forEach((line, index) => {
    const where = `line ${index + 1}`
    if (line.trim() === '') return
    if (line.startsWith('#')) {
      const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line)
      if (!match) return // a comment
      const [, keyword, name, rest = ''] = match as unknown as [string, 'HELP' | 'TYPE', string, string | undefined]
      if (!METRIC_NAME.test(name)) throw new Error(`${where}: ${JSON.stringify(name)} is not a metric name`)
      if (keyword === 'HELP') {
        if (helps.has(name)) throw new Error(`${where}: a second HELP for ${name}`)
        helps.set(name, unescapeHelp(rest, where))
        const family = families.get(name)
        if (family) family.help = helps.get(name)!
        return
      }
      const type = rest.trim() as MetricType
      if (!TYPES.has(type)) throw new Error(`${where}: ${JSON.stringify(rest)} is not a metric type`)
      if (families.has(name)) throw new Error(`${where}: TYPE for ${name} after its samples, or twice`)
      families.set(name, { name, help: helps.get(name) ?? null, type, samples: [] })
      return
    }
    const nameEnd = line.search(/[{\s]/)
    if (nameEnd <= 0) throw new Error(`${where}: no sample value`)
    const name = line.slice(0, nameEnd)
    if (!METRIC_NAME.test(name)) throw new Error(`${where}: ${JSON.stringify(name)} is not a metric name`)
    let labels: Record<string, string> = {}
    let rest = line.slice(nameEnd)
    if (rest.startsWith('{')) {
      const read = readLabels(line, nameEnd, where)
      labels = read.labels
      rest = line.slice(read.end)
    }
    const fields = rest.trim().split(/\s+/)
    if (!/^\s/.test(rest) || fields.length < 1 || fields.length > 2 || fields[0] === '')
      throw new Error(`${where}: expected a value (and a timestamp) after the name`)
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`${where}: ${JSON.stringify(fields[1])} is not a timestamp`)
    const value = parseValue(fields[0]!, where)
    // The family this sample belongs to: its own name, or its name less a suffix of the family's type.
    const family = families.get(name) ?? [...families.values()].find((f) => (SUFFIXES[f.type] ?? []).some((suffix) => name === f.name + suffix))
    if (!family) throw new Error(`${where}: ${name} has no TYPE line before it`)
    if (family.type === 'histogram' && name === family.name) throw new Error(`${where}: a histogram's sample needs a suffix`)
    if (current !== family) {
      if (current) closed.add(current.name)
      if (closed.has(family.name)) throw new Error(`${where}: ${family.name}'s samples are not together`)
      current = family
    }
    const key = seriesKey(name, labels)
    if (seen.has(key)) throw new Error(`${where}: ${key} given twice`)
    seen.add(key)
    if (family.type === 'counter' && !(value >= 0)) throw new Error(`${where}: counter ${name} is ${value}`)
    family.samples.push({ name, labels, value })
  })
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family)
  return families
}

/** The value of one series (labels given exactly), or undefined when the exposition has none. */
export function sampleValue(families: Map<string, Family>, family: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const key = seriesKey(name, labels)
  return families.get(family)?.samples.find((s) => seriesKey(s.name, s.labels) === key)?.value
}
