// A client's JSON Schema (structured outputs, tool parameters) made fit to fill within an answer's
// budget, before any value is generated. Bounds that ask for more than the answer can hold (minItems
// 1e7, minLength 1e9, minProperties) are lowered to what overflows the budget: the value is then cut
// at the answer's max tokens with finish_reason "length", as a real model runs out of tokens. What no
// value can satisfy (minItems above maxItems, more properties than additionalProperties: false
// allows, a pattern whose shortest match is longer than any answer) is a 400 naming the keyword.
import { fieldError } from '../../core/errors.ts'

type Schema = Record<string, unknown>

const isObject = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value)
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null)
/** Sizes add up without overflowing into Infinity arithmetic surprises. */
const BIG = Number.MAX_SAFE_INTEGER
const add = (a: number, b: number): number => Math.min(BIG, a + b)
const times = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : Math.min(BIG, a * b))

/**
 * The length of the shortest string an ECMA-262 pattern (JSON Schema's) matches: literals and classes
 * count one, groups their shortest branch, quantifiers their lower bound. `(a{1000}){1000}` is 1e6.
 */
export function shortestMatch(pattern: string): number {
  let at = 0
  const alternation = (): number => {
    let best = sequence()
    while (pattern[at] === '|') {
      at++
      best = Math.min(best, sequence())
    }
    return best
  }
  const sequence = (): number => {
    let total = 0
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') total = add(total, times(atom(), lowerBound()))
    return total
  }
  const atom = (): number => {
    const c = pattern[at++]!
    if (c === '^' || c === '$') return 0
    if (c === '\\') {
      const e = pattern[at++] ?? ''
      if (e === 'b' || e === 'B') return 0
      if (e === 'u' && pattern[at] === '{') at = pattern.indexOf('}', at) === -1 ? pattern.length : pattern.indexOf('}', at) + 1
      else if (e === 'u') at += 4
      else if (e === 'x') at += 2
      else if (e === 'p' || e === 'P') at = pattern[at] === '{' && pattern.indexOf('}', at) !== -1 ? pattern.indexOf('}', at) + 1 : at
      return 1
    }
    if (c === '[') {
      if (pattern[at] === '^') at++
      if (pattern[at] === ']') at++
      while (at < pattern.length && pattern[at] !== ']') at += pattern[at] === '\\' ? 2 : 1
      at++
      return 1
    }
    if (c === '(') {
      let lookaround = false
      if (pattern[at] === '?') {
        const rest = pattern.slice(at, at + 3)
        lookaround = rest.startsWith('?=') || rest.startsWith('?!') || rest === '?<=' || rest === '?<!'
        if (rest.startsWith('?<') && !lookaround) at = pattern.indexOf('>', at) === -1 ? pattern.length : pattern.indexOf('>', at) + 1
        else at += lookaround && rest.startsWith('?<') ? 3 : 2
      }
      const inner = alternation()
      at++ // the closing parenthesis
      return lookaround ? 0 : inner
    }
    return 1
  }
  const lowerBound = (): number => {
    const c = pattern[at]
    let bound = 1
    if (c === '*' || c === '?') {
      at++
      bound = 0
    } else if (c === '+') {
      at++
    } else if (c === '{') {
      const match = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(at, at + 40))
      if (!match) return 1 // a literal brace
      at += match[0].length
      bound = Math.min(BIG, Number(match[1]))
    } else {
      return 1
    }
    if (pattern[at] === '?' || pattern[at] === '+') at++ // lazy or possessive
    return bound
  }
  const length = alternation()
  return at < pattern.length ? add(length, shortestMatch(pattern.slice(at + 1))) : length
}

export interface FittedSchema {
  schema: Schema
  /** A bound was lowered: the value stands for a longer one, and the answer is cut ("length"). */
  lowered: boolean
}

/**
 * `schema` with its bounds lowered so a value of it is about `budget` characters of JSON at most
 * (enum and const values excepted: they are cut with the answer). The budget is shared out top-down:
 * an array's items share it by the most items there may be, an object's properties evenly, and a
 * schema that `$ref`s point at gets the smallest budget of the places that refer to it. Throws a 400
 * naming the keyword (`field` + its path) for what no value can satisfy.
 */
export function fitSchema(schema: Schema, budget: number, field: string): FittedSchema {
  const fitter = new Fitter(schema, field)
  // Each pass may lower the budget of a schema a $ref points at; a few passes settle every chain.
  let fitted = fitter.fit(schema, '', '', budget)
  for (let pass = 0; pass < 4 && fitter.refBudgetsChanged(); pass++) fitted = fitter.fit(schema, '', '', budget)
  return { schema: fitted as Schema, lowered: fitter.lowered }
}

/** $ref chains followed at most this deep when sizing (cycles stop there). */
const REF_DEPTH = 8
/** The least budget a part of a value is given, however many parts share one. */
const MIN_PART = 16
/** Properties beyond the named ones an object is given at most. */
const MOST_PROPERTIES = 500
/** Items an array has when its schema gives no bounds (the generator's maxDefaultItems). */
const DEFAULT_ITEMS = 3

const pointerPart = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1')

class Fitter {
  lowered = false
  private readonly root: Schema
  private readonly field: string
  /** Sizes known, by schema object: each is sized once however often it is referred to (and a cycle counts 1). */
  private readonly sizes = new WeakMap<Schema, number>()
  /** The budget of the schema at each JSON pointer that a $ref points at: the least of its referrers'. */
  private readonly refBudgets = new Map<string, number>()
  private changed = false

  constructor(root: Schema, field: string) {
    this.root = root
    this.field = field
  }

  refBudgetsChanged(): boolean {
    const changed = this.changed
    this.changed = false
    return changed
  }

  private noteRef(ref: string, budget: number): void {
    if (!ref.startsWith('#')) return
    const pointer = ref.slice(1)
    const known = this.refBudgets.get(pointer)
    if (known === undefined || budget < known) {
      this.refBudgets.set(pointer, budget)
      this.changed = true
    }
  }

  private refuse(path: string, issue: string): never {
    throw fieldError(`${this.field}${path}`, issue)
  }

  /** The schema a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`) points at, if any. */
  private resolve(ref: string): unknown {
    if (ref === '#') return this.root
    if (!ref.startsWith('#/')) return undefined
    let node: unknown = this.root
    for (const part of ref.slice(2).split('/')) {
      if (!isObject(node)) return undefined
      node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    }
    return node
  }

  /** The fewest characters of JSON a value of `node` takes (a lower bound; Infinity when none can exist). */
  minSize(node: unknown, depth = 0): number {
    if (node === false) return Number.POSITIVE_INFINITY
    if (!isObject(node) || depth > REF_DEPTH) return 1
    const known = this.sizes.get(node)
    if (known !== undefined) return known
    this.sizes.set(node, 1)
    const size = this.measure(node, depth)
    this.sizes.set(node, size)
    return size
  }

  private measure(node: Schema, depth: number): number {
    if ('const' in node) return JSON.stringify(node.const)?.length ?? 4
    if (Array.isArray(node.enum) && node.enum.length > 0) {
      let shortest = BIG
      for (const value of node.enum as unknown[]) shortest = Math.min(shortest, JSON.stringify(value)?.length ?? 4)
      return shortest
    }
    let size = typeof node.$ref === 'string' ? this.minSize(this.resolve(node.$ref), depth + 1) : 1
    if (Array.isArray(node.allOf)) for (const sub of node.allOf) size = Math.max(size, this.minSize(sub, depth + 1))
    for (const key of ['anyOf', 'oneOf'] as const) {
      const subs = node[key]
      if (Array.isArray(subs) && subs.length > 0) size = Math.max(size, Math.min(...subs.map((sub) => this.minSize(sub, depth + 1))))
    }
    const types = Array.isArray(node.type) ? node.type : typeof node.type === 'string' ? [node.type] : []
    if (types.length > 0) size = Math.max(size, Math.min(...types.map((type) => this.typedSize(node, String(type), depth))))
    return size
  }

  private typedSize(node: Schema, type: string, depth: number): number {
    switch (type) {
      case 'string':
        return add(2, Math.max(count(node.minLength) ?? 0, typeof node.pattern === 'string' ? shortestMatch(node.pattern) : 0))
      case 'array': {
        const minItems = count(node.minItems) ?? 0
        const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : []
        let size = 2
        for (let i = 0; i < Math.min(minItems, prefix.length); i++) size = add(size, this.minSize(prefix[i], depth + 1) + 1)
        const rest = minItems - Math.min(minItems, prefix.length)
        return rest > 0 ? add(size, times(rest, this.minSize(node.items, depth + 1) + 1)) : size
      }
      case 'object': {
        const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === 'string') : []
        const properties = isObject(node.properties) ? node.properties : {}
        let size = 2
        for (const key of required) size = add(size, key.length + 4 + this.minSize(properties[key], depth + 1))
        return add(size, times(Math.max(0, (count(node.minProperties) ?? 0) - required.length), 6))
      }
      case 'boolean':
        return 4
      case 'null':
        return 4
      default:
        return 1
    }
  }

  /**
   * A copy of `node` (at `path` for messages, `pointer` for $refs) whose bounds fit `budget`
   * characters; refuses what cannot be satisfied.
   */
  fit(node: unknown, path: string, pointer: string, at: number): unknown {
    if (!isObject(node)) return node
    if (pointer === '') this.lowered = false // a new pass
    const budget = Math.min(at, this.refBudgets.get(pointer) ?? at)
    const out: Schema = { ...node }
    this.checkRanges(node, path)
    const sub = (key: string, value: unknown, room: number): unknown =>
      this.fit(value, `${path}.${key}`, `${pointer}/${key.split('.').map(pointerPart).join('/')}`, room)
    const subs = (key: string, value: unknown, room: number): unknown =>
      Array.isArray(value) ? value.map((v, i) => this.fit(v, `${path}.${key}[${i}]`, `${pointer}/${key}/${i}`, room)) : value
    const entries = (key: string, value: unknown, room: number): unknown =>
      isObject(value)
        ? Object.fromEntries(
            Object.entries(value).map(([name, v]) => [name, this.fit(v, `${path}.${key}.${name}`, `${pointer}/${key}/${pointerPart(name)}`, room)]),
          )
        : value
    if (typeof node.$ref === 'string') this.noteRef(node.$ref, budget)
    // Schemas that are not part of the value here (definitions) get the budget of whatever refers to them.
    for (const key of ['$defs', 'definitions'] as const) if (isObject(node[key])) out[key] = entries(key, node[key], budget)
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[key])) out[key] = subs(key, node[key], budget)
    for (const key of ['not', 'if', 'then', 'else', 'propertyNames'] as const) if (isObject(node[key])) out[key] = sub(key, node[key], budget)
    this.fitString(node, out, path, budget)
    this.fitArray(node, out, path, budget, sub, subs)
    this.fitObject(node, out, path, budget, sub, entries)
    return out
  }

  private fitString(node: Schema, out: Schema, path: string, budget: number): void {
    if (typeof node.pattern === 'string') {
      const shortest = shortestMatch(node.pattern)
      if (shortest > budget)
        this.refuse(`${path}.pattern`, `matches only strings of ${shortest} characters or more, longer than an answer can hold (${budget})`)
    }
    const minLength = count(node.minLength)
    if (minLength !== null && minLength > budget) {
      out.minLength = budget
      this.lowered = true
    }
    // Upper bounds are lowered too (a value may still be as long as its budget): the generator draws
    // lengths up to them, and maxLength 1e8 would be a 100 MB string.
    const maxLength = count(node.maxLength)
    if (maxLength !== null && maxLength > budget) out.maxLength = Math.max(budget, count(out.minLength) ?? 0)
  }

  private fitArray(
    node: Schema,
    out: Schema,
    path: string,
    budget: number,
    sub: (key: string, value: unknown, room: number) => unknown,
    subs: (key: string, value: unknown, room: number) => unknown,
  ): void {
    const minItems = count(node.minItems) ?? 0
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0
    if (node.items === false && minItems > prefix) this.refuse(`${path}.minItems`, `asks for ${minItems} items but \`items\` is false`)
    // The items share the budget by the most of them there may be.
    const most = count(node.maxItems) ?? Math.max(minItems, DEFAULT_ITEMS)
    const share = Math.max(MIN_PART, Math.floor(budget / Math.max(1, Math.min(most, budget))))
    if (isObject(node.items)) out.items = sub('items', node.items, share)
    if (Array.isArray(node.prefixItems)) out.prefixItems = subs('prefixItems', node.prefixItems, share)
    if (isObject(node.contains)) out.contains = sub('contains', node.contains, share)
    const fits = Math.floor(budget / (Math.max(1, this.minSize(out.items)) + 1)) + 1
    if (minItems > fits) {
      out.minItems = fits
      this.lowered = true
    }
    const maxItems = count(node.maxItems)
    if (maxItems !== null && maxItems > Math.max(fits, count(out.minItems) ?? 0)) out.maxItems = Math.max(fits, count(out.minItems) ?? 0)
    const minContains = count(node.minContains)
    if (minContains !== null && minContains > fits) {
      out.minContains = fits
      this.lowered = true
    }
  }

  private fitObject(
    node: Schema,
    out: Schema,
    path: string,
    budget: number,
    sub: (key: string, value: unknown, room: number) => unknown,
    entries: (key: string, value: unknown, room: number) => unknown,
  ): void {
    const properties = isObject(node.properties) ? node.properties : {}
    const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === 'string') : []
    const closed = node.additionalProperties === false && !isObject(node.patternProperties)
    if (closed) {
      const missing = required.find((key) => !(key in properties))
      if (missing !== undefined) this.refuse(`${path}.required`, `names ${missing}, which is not among the properties while additionalProperties is false`)
      const allowed = Object.keys(properties).length
      const minProperties = count(node.minProperties) ?? 0
      if (minProperties > allowed)
        this.refuse(`${path}.minProperties`, `asks for at least ${minProperties} properties but allows only ${allowed} (additionalProperties is false)`)
    }
    for (const key of required) if (properties[key] === false) this.refuse(`${path}.properties.${key}`, 'is required but its schema is false')
    // The generator names at most about 500 properties of its own (it fails from about 1,000 on).
    const most = Math.max(required.length, Math.min(MOST_PROPERTIES, Math.floor(budget / 6)))
    const minProperties = count(node.minProperties)
    if (minProperties !== null && minProperties > most) {
      out.minProperties = most
      this.lowered = true
    }
    const maxProperties = count(node.maxProperties)
    if (maxProperties !== null && maxProperties > most) out.maxProperties = most
    // The properties share the budget evenly; properties beyond them, by the most there may be.
    const named = Object.keys(properties).length
    if (isObject(node.properties)) out.properties = entries('properties', node.properties, Math.max(MIN_PART, Math.floor(budget / Math.max(1, named))))
    const extra = Math.max(MIN_PART, Math.floor(budget / Math.max(1, count(out.maxProperties) ?? count(out.minProperties) ?? DEFAULT_ITEMS)))
    if (isObject(node.patternProperties)) out.patternProperties = entries('patternProperties', node.patternProperties, extra)
    if (isObject(node.additionalProperties)) out.additionalProperties = sub('additionalProperties', node.additionalProperties, extra)
  }

  /** Lower bounds above upper bounds. */
  private checkRanges(node: Schema, path: string): void {
    const pairs = [
      ['minItems', 'maxItems'],
      ['minLength', 'maxLength'],
      ['minProperties', 'maxProperties'],
      ['minContains', 'maxContains'],
      ['minimum', 'maximum'],
    ] as const
    for (const [low, high] of pairs) {
      const a = node[low]
      const b = node[high]
      if (typeof a === 'number' && typeof b === 'number' && a > b) this.refuse(`${path}.${low}`, `is ${a}, above ${high} (${b}): no value can satisfy both`)
    }
    if (Array.isArray(node.enum) && node.enum.length === 0) this.refuse(`${path}.enum`, 'is empty: no value can satisfy it')
  }
}
