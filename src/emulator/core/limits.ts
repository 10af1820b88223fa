// A bound the emulator keeps, as its documentation states it: what is bounded, how far, and what a
// request past it gets. Each area declares its own beside its module (the module contract's `limits`),
// the kernel's parts theirs beside their code, and docs/limits.md is written from the declarations
// (npm run docs:limits; a test fails when the page is stale), so the page and the code cannot differ.

export interface Limit {
  /** What is bounded, and over what: "Presets per account". */
  what: string
  /** How far: a number in `unit`. */
  value: number
  unit: LimitUnit
  /** What a request past it gets, or what happens to what is past it: "400 naming the limit". */
  beyond: string
}

export type LimitUnit = 'bytes' | 'characters' | 'items' | 'tokens' | 'seconds' | 'ms' | 'requests' | 'pixels' | 'levels' | 'threads'

/** A group of bounds on the page: an area's, or a part of the kernel's. */
export interface LimitGroup {
  title: string
  limits: readonly Limit[]
}

const BINARY_UNITS: ReadonlyArray<[number, string]> = [
  [1024 * 1024 * 1024, 'GiB'],
  [1024 * 1024, 'MiB'],
  [1024, 'KiB'],
]

/** A value as the page says it: 25 MiB (26,214,400 bytes), 10,000 items, 2 s. */
export function describeValue(limit: Pick<Limit, 'value' | 'unit'>): string {
  const { value, unit } = limit
  const plain = value.toLocaleString('en-US')
  if (unit === 'bytes') {
    const binary = BINARY_UNITS.find(([size]) => value >= size && value % (size / 16) === 0)
    return binary ? `${(value / binary[0]).toLocaleString('en-US')} ${binary[1]} (${plain} bytes)` : `${plain} bytes`
  }
  if (unit === 'ms') return value % 1000 === 0 ? `${(value / 1000).toLocaleString('en-US')} s` : `${plain} ms`
  if (unit === 'seconds') return `${plain} s`
  return `${plain} ${unit === 'items' ? '' : unit}`.trim()
}

/** The page's body: a table per group. */
export function limitsMarkdown(groups: readonly LimitGroup[]): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|')
  return groups
    .filter((group) => group.limits.length > 0)
    .map((group) =>
      [
        `### ${group.title}`,
        '',
        '| Bound | Value | Past it |',
        '| --- | --- | --- |',
        ...group.limits.map((limit) => `| ${cell(limit.what)} | ${cell(describeValue(limit))} | ${cell(limit.beyond)} |`),
      ].join('\n'),
    )
    .join('\n\n')
}
