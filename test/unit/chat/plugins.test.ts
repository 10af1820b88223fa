// The two plugins that change an answer, as pure functions: response healing's JSON repair and
// context compression's middle-out choice of the messages kept.
import { describe, expect, it } from 'vitest'
import { compressMiddle, healJson } from '../../../src/emulator/modules/text/text-plugins.service.ts'

describe('healJson', () => {
  it.each([
    ['```json\n{"a": 1, "b": [1,2,],}\n```', '{"a": 1, "b": [1,2]}'],
    ['Here you go: {"name": "Ada", "tags": ["x", "y"', '{"name": "Ada", "tags": ["x", "y"]}'],
    ['{"a": "unterminated', '{"a": "unterminated"}'],
    ['{"a":1} and some words after', '{"a":1}'],
    ['{"a": {"b": 2,', '{"a": {"b": 2}}'],
    ['["a", "b\\', '["a", "b"]'],
    ['{"k": "v},"', '{"k": "v},"}'],
  ])('repairs %j', (broken, healed) => {
    expect(healJson(broken)).toBe(healed)
    expect(() => JSON.parse(healJson(broken))).not.toThrow()
  })

  it('leaves valid JSON, text without a value, and what it cannot repair as they are', () => {
    for (const text of ['{"a": [1, 2]}', '42', 'no json here', '{"a": ', '{"a" "b"}']) expect(healJson(text)).toBe(text)
  })
})

describe('compressMiddle', () => {
  const roles = ['system', 'user', 'assistant', 'user', 'assistant', 'user'].map((role, index) => ({ role, index }))

  it('drops from the middle outwards until the rest fits, keeping the system prompt and the last turn', () => {
    expect(compressMiddle(roles, 60, () => 10, 55)!.map((m) => m.index)).toEqual([0, 1, 3, 4, 5])
    expect(compressMiddle(roles, 60, () => 10, 45)!.map((m) => m.index)).toEqual([0, 1, 4, 5])
    expect(compressMiddle(roles, 60, () => 10, 35)!.map((m) => m.index)).toEqual([0, 4, 5])
    expect(compressMiddle(roles, 60, () => 10, 20)!.map((m) => m.index)).toEqual([0, 5])
  })

  it('null when the kept messages alone do not fit; everything when it fits already', () => {
    expect(compressMiddle(roles, 60, () => 10, 19)).toBeNull()
    expect(compressMiddle(roles, 60, () => 10, 60)).toEqual(roles)
  })
})
