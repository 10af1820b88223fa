// A destination's filter rules: which generations it is sent. A group's rules are joined by its logic
// (and, or); a generation is sent when every group matches. Regular expressions are RE2's (re2js),
// matched in time linear in the text, and checked when the rules are saved.
import { RE2JS } from 're2js'
import { fieldError } from '../../core/errors.ts'
import type { FilterRule, FilterRules } from './observability.schemas.ts'

/** What a rule can read of a generation; null where the emulator keeps nothing (sessions, prompt and answer). */
export interface TraceFields {
  model: string
  provider: string
  session_id: null
  user_id: string | null
  api_key_name: string | null
  finish_reason: string | null
  input: null
  output: null
  total_cost: number
  total_tokens: number
  prompt_tokens: number
  completion_tokens: number
}

const NUMERIC = new Set(['gt', 'lt', 'gte', 'lte'])
const TEXTUAL = new Set(['contains', 'not_contains', 'starts_with', 'ends_with', 'regex'])
/** The most instructions a rule's pattern may compile to: what bounds one match's time. */
const MAX_PROGRAM = 2000

const compiled = new Map<string, RE2JS>()

function regexOf(pattern: string): RE2JS {
  let regex = compiled.get(pattern)
  if (!regex) {
    regex = RE2JS.compile(pattern)
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value!)
    compiled.set(pattern, regex)
  }
  return regex
}

/** Refuses a rule that could never be evaluated, naming it: a missing value, a number compared as text, a bad pattern. */
export function checkFilterRules(rules: FilterRules | null | undefined): void {
  rules?.groups.forEach((group, g) =>
    group.rules.forEach((rule, r) => {
      const field = `filter_rules.groups[${g}].rules[${r}].value`
      if (rule.operator === 'exists' || rule.operator === 'not_exists') return
      if (rule.value === undefined) throw fieldError(field, `is required by the operator ${rule.operator}`)
      if (NUMERIC.has(rule.operator) && typeof rule.value !== 'number') throw fieldError(field, `must be a number for the operator ${rule.operator}`)
      if (TEXTUAL.has(rule.operator) && typeof rule.value !== 'string') throw fieldError(field, `must be a string for the operator ${rule.operator}`)
      if (rule.operator !== 'regex') return
      let size: number
      try {
        size = regexOf(rule.value as string).programSize()
      } catch (error) {
        throw fieldError(field, `is not a regular expression RE2 takes: ${(error as Error).message}`)
      }
      if (size > MAX_PROGRAM) throw fieldError(field, `is too large a regular expression (${size} instructions, at most ${MAX_PROGRAM})`)
    }),
  )
}

function matches(rule: FilterRule, fields: TraceFields): boolean {
  const actual = fields[rule.field]
  if (rule.operator === 'exists') return actual !== null
  if (rule.operator === 'not_exists') return actual === null
  // Nothing to compare: only the negations hold.
  if (actual === null) return rule.operator === 'not_equals' || rule.operator === 'not_contains'
  const value = rule.value!
  const text = String(actual)
  switch (rule.operator) {
    case 'equals':
      return typeof actual === 'number' ? actual === Number(value) : text === String(value)
    case 'not_equals':
      return typeof actual === 'number' ? actual !== Number(value) : text !== String(value)
    case 'contains':
      return text.includes(String(value))
    case 'not_contains':
      return !text.includes(String(value))
    case 'starts_with':
      return text.startsWith(String(value))
    case 'ends_with':
      return text.endsWith(String(value))
    case 'regex':
      return regexOf(String(value)).test(text)
    case 'gt':
      return typeof actual === 'number' && actual > Number(value)
    case 'lt':
      return typeof actual === 'number' && actual < Number(value)
    case 'gte':
      return typeof actual === 'number' && actual >= Number(value)
    case 'lte':
      return typeof actual === 'number' && actual <= Number(value)
  }
}

/** Whether a generation passes a destination's rules (none, or disabled ones, pass everything). */
export function passesFilters(rules: FilterRules | null, fields: TraceFields): boolean {
  if (!rules || rules.enabled === false) return true
  // A group without rules restricts nothing.
  return rules.groups.every(
    (group) =>
      group.rules.length === 0 ||
      (group.logic === 'or' ? group.rules.some((rule) => matches(rule, fields)) : group.rules.every((rule) => matches(rule, fields))),
  )
}
