// The schema filler's worker budget (time, then a new worker) and the schema fitting it relies on:
// the shortest match of a pattern, bounds lowered to a budget, what no value can satisfy.
import { afterEach, describe, expect, it } from 'vitest'
import { FILL_MS, SchemaFiller } from '../../../src/emulator/modules/text/text-schema-filler.service.ts'
import { fitSchema, shortestMatch } from '../../../src/emulator/modules/text/text-schema-fit.service.ts'

describe('shortestMatch', () => {
  it.each([
    ['^abc$', 3],
    ['a|bc', 1],
    ['(ab|c)d', 2],
    ['a*b+c?', 1],
    ['[a-z]{3,5}', 3],
    ['^((a{1000}){1000}){1000}$', 1e9],
    ['(?:x{10}){2}', 20],
    ['(?=abc)d', 1],
    ['\\d{4}-\\d{2}', 7],
    ['\\u00e9{2}', 2],
    ['a{2}?', 2],
    ['a{,3}', 5], // not a quantifier in ECMA-262: the literal text
  ])('%s: %d', (pattern, length) => {
    expect(shortestMatch(pattern)).toBe(length)
  })
})

describe('fitSchema', () => {
  it('leaves a schema within the budget as it is', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'array', minItems: 2, maxItems: 5, items: { type: 'integer' } } } }
    expect(fitSchema(schema, 10_000, 'f')).toEqual({ schema, lowered: false })
  })

  it('lowers lower bounds past the budget and says so; upper bounds too, without saying so', () => {
    expect(fitSchema({ type: 'array', minItems: 1e7, items: { type: 'integer' } }, 100, 'f')).toEqual({
      schema: { type: 'array', minItems: 51, items: { type: 'integer' } },
      lowered: true,
    })
    expect(fitSchema({ type: 'string', maxLength: 1e8 }, 100, 'f')).toEqual({ schema: { type: 'string', maxLength: 100 }, lowered: false })
  })

  it('gives a schema that $refs point at the least budget of its referrers', () => {
    const fitted = fitSchema({ type: 'array', maxItems: 100, items: { $ref: '#/$defs/s' }, $defs: { s: { type: 'string', maxLength: 1e6 } } }, 1000, 'f')
    expect((fitted.schema.$defs as any).s.maxLength).toBe(16)
  })

  it('refuses what no value can satisfy, naming the keyword', () => {
    expect(() => fitSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 5, maximum: 1 } } }, 100, 'f')).toThrow(
      'Field `f.properties.n.minimum` is 5, above maximum (1): no value can satisfy both',
    )
    expect(() => fitSchema({ type: 'array', minItems: 1, items: false }, 100, 'f')).toThrow('Field `f.minItems` asks for 1 items but `items` is false')
  })
})

describe('SchemaFiller', () => {
  let filler: SchemaFiller
  afterEach(() => filler.close())

  it('gives the same value for the same seed, and another for another seed', async () => {
    filler = new SchemaFiller()
    const schema = { type: 'object', required: ['name', 'n'], properties: { name: { type: 'string' }, n: { type: 'integer' } } }
    const [a, b, c] = await filler.fill([
      { schema, seed: 7, field: 'f' },
      { schema, seed: 7, field: 'f' },
      { schema, seed: 8, field: 'f' },
    ])
    expect(a).toBe(b)
    expect(c).not.toBe(a)
    expect(Object.keys(JSON.parse(a!))).toEqual(['name', 'n'])
  })

  it(`ends a job past ${FILL_MS} ms with a 400 naming its field, the event loop free meanwhile; the next job gets a new worker`, async () => {
    filler = new SchemaFiller()
    // Unfitted, the generator draws a string of up to 1e8 characters: tens of seconds.
    const slow = filler.fill([{ schema: { type: 'string', maxLength: 1e8 }, seed: 1, field: 'response_format.json_schema.schema' }])
    let slowestTick = 0
    let last = performance.now()
    let settled = false
    void slow.catch(() => undefined).finally(() => (settled = true))
    while (!settled) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      slowestTick = Math.max(slowestTick, performance.now() - last)
      last = performance.now()
    }
    await expect(slow).rejects.toMatchObject({
      status: 400,
      message: `Field \`response_format.json_schema.schema\` could not be filled with a value within ${FILL_MS} ms: lower its bounds (minItems, minLength, patterns, enum sizes)`,
    })
    expect(slowestTick).toBeLessThan(500)
    expect(await filler.fill([{ schema: { const: 1 }, seed: 1, field: 'f' }])).toEqual(['1'])
  })

  it('answers what the generator cannot fill with a 400 naming the field', async () => {
    filler = new SchemaFiller()
    await expect(filler.fill([{ schema: { type: 'object', minProperties: 5000 }, seed: 1, field: 'tools[0].function.parameters' }])).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Field `tools\[0\]\.function\.parameters` cannot be filled with a value: /),
    })
  })
})
