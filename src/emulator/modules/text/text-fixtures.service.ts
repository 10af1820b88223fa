// Chat fixtures: per-account rules that answer a chat or text completion with given text, given tool
// calls or an error, instead of a generated answer. The first enabled rule (by position) whose every
// condition holds answers; a rule with `times` answers that many requests, then stays listed as used up.
// Regular expressions are RE2's (re2js): matched in time linear in the text, so no pattern can stall
// the emulator the way a backtracking one (`^(a+)+$`) does.
import { RE2JS, RE2JSSyntaxException } from 're2js'
import type { ChatFixtureRow, ChatFixturesRepo } from './text-fixtures.repo.ts'
import { importRowError } from '../../core/lifecycle.ts'
import type { ChatFixtureAnswer, ChatFixtureMatch } from './text-fixtures.schemas.ts'

/** What a rule sees of a request. */
export interface FixtureSubject {
  model: string
  lastUser: string
  system: string
  tools: readonly string[]
  header: string | null
}

/** The first of an account's rules that answers `subject`, if any. */
export function answeringFixture(repo: ChatFixturesRepo, accountId: string, subject: FixtureSubject): ChatFixtureRow | undefined {
  return repo.active(accountId).find((row) => mismatch(row, subject) === null)
}

/** Why a rule does not answer a request, or null when it does. */
export function mismatch(row: ChatFixtureRow, subject: FixtureSubject): string | null {
  if (row.enabled === 0) return 'it is disabled'
  if (row.remaining !== null && row.remaining <= 0) return 'it is used up'
  return conditionsMismatch(JSON.parse(row.match) as ChatFixtureMatch, subject)
}

/** Why a rule's conditions do not hold for a request, or null when they all do (recorded files match by them too). */
export function conditionsMismatch(match: ChatFixtureMatch, subject: FixtureSubject): string | null {
  if (match.model !== undefined && !globMatches(match.model, subject.model)) return `the model is not ${match.model}`
  if (match.last_user !== undefined && !contains(subject.lastUser, match.last_user)) return `the last user message does not contain "${match.last_user}"`
  if (match.last_user_regex !== undefined) {
    const why = regexMismatch(match.last_user_regex, subject.lastUser, 'the last user message', 'last_user_regex')
    if (why) return why
  }
  if (match.system !== undefined && !contains(subject.system, match.system)) return `the system prompt does not contain "${match.system}"`
  if (match.system_regex !== undefined) {
    const why = regexMismatch(match.system_regex, subject.system, 'the system prompt', 'system_regex')
    if (why) return why
  }
  if (match.tool !== undefined && !subject.tools.includes(match.tool)) return `the request offers no tool ${match.tool}`
  if (match.header !== undefined && subject.header !== match.header) return `the X-Emulator-Fixture header is not "${match.header}"`
  return null
}

/** The first of a rule's regular expressions that RE2 does not take, with why; null when all do. */
export function badRegex(match: ChatFixtureMatch): { field: 'last_user_regex' | 'system_regex'; issue: string } | null {
  for (const field of ['last_user_regex', 'system_regex'] as const) {
    const pattern = match[field]
    if (pattern === undefined) continue
    const compiled = compileRegex(pattern)
    if (typeof compiled === 'string') return { field, issue: compiled }
  }
  return null
}

/** The most instructions a compiled pattern may have: with MATCH_WORK, what bounds one match's time. */
const MAX_REGEX_PROGRAM = 2000
/**
 * Characters times instructions one match may cost. RE2 is linear in the text, but once a pattern's
 * automaton outgrows its cache each character costs up to one step per instruction (about 25 ns
 * here), so a regex sees the first MATCH_WORK / program-size characters of the text: 1.3 M for
 * `^order #\d+$`, 8 K for the largest pattern taken; at most about 0.4 s per rule.
 */
const MATCH_WORK = 2 ** 24
const CACHE_SIZE = 64
/** Compiled patterns (or why a pattern does not compile), least recently used first. */
const compiledRegexes = new Map<string, RE2JS | string>()

/** `pattern` compiled case-insensitive, from the cache; or why RE2 does not take it. */
function compileRegex(pattern: string): RE2JS | string {
  const cached = compiledRegexes.get(pattern)
  if (cached !== undefined) {
    compiledRegexes.delete(pattern)
    compiledRegexes.set(pattern, cached)
    return cached
  }
  let compiled: RE2JS | string
  try {
    compiled = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE)
    const size = compiled.programSize()
    if (size > MAX_REGEX_PROGRAM) compiled = `too large for RE2 (${size} instructions, at most ${MAX_REGEX_PROGRAM}): lower its repeat counts`
  } catch (error) {
    compiled = re2Issue(pattern, error)
  }
  if (compiledRegexes.size >= CACHE_SIZE) compiledRegexes.delete(compiledRegexes.keys().next().value!)
  compiledRegexes.set(pattern, compiled)
  return compiled
}

/** Why `text` does not match `pattern` (found anywhere, case-insensitive), or null when it does. */
function regexMismatch(pattern: string, text: string, what: string, field: string): string | null {
  const regex = compileRegex(pattern)
  // Stored by an emulator that took JavaScript syntax (an old database): the rule answers nothing.
  if (typeof regex === 'string') return `its ${field} is not valid: ${regex}`
  const window = Math.floor(MATCH_WORK / regex.programSize())
  return regex.test(text.length > window ? text.slice(0, window) : text) ? null : `${what} does not match /${pattern}/i`
}

/** RE2's reason for refusing a pattern, naming the JavaScript features it lacks. */
function re2Issue(pattern: string, error: unknown): string {
  if (!(error instanceof RE2JSSyntaxException)) return `RE2 syntax: ${(error as Error).message}`
  const what = error.getDescription()
  // The case-insensitive flag is compiled as a `(?i)` prefix: quote the pattern as given.
  const raw = error.getPattern() ?? ''
  const at = raw.startsWith('(?i)') && !pattern.includes(raw) ? raw.slice(4) : raw
  const lacks = (feature: string, shown: string) => `RE2 syntax does not support ${feature} (\`${shown}\`)`
  if (what === 'invalid escape sequence' && /^\\([1-9]|k)/.test(at)) return lacks('backreferences', at)
  if (at.startsWith('(?=') || at.startsWith('(?!')) return lacks('lookahead', at.slice(0, 3))
  if (at.startsWith('(?<=') || at.startsWith('(?<!')) return lacks('lookbehind', at.slice(0, 4))
  if (at.startsWith('(?>')) return lacks('atomic groups', '(?>')
  if (what === 'invalid nested repetition operator' && at.endsWith('+')) return lacks('possessive quantifiers', at)
  if (what === 'invalid escape sequence' && at === '\\u') return 'RE2 syntax does not support `\\u` escapes: write `\\x{20AC}` for `\\u20AC`'
  return `RE2 syntax: ${what}: \`${at}\``
}

const contains = (text: string, part: string): boolean => text.toLowerCase().includes(part.toLowerCase())

function globMatches(glob: string, value: string): boolean {
  if (!glob.includes('*')) return glob === value
  const pattern = glob
    .split('*')
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${pattern}$`).test(value)
}

/** One sentence for the UI: what the rule answers, to what, how often. */
export function explainFixture(row: ChatFixtureRow): string {
  const match = JSON.parse(row.match) as ChatFixtureMatch
  const answer = JSON.parse(row.answer) as ChatFixtureAnswer
  const quote = (text: string) => `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`
  const what = answer.error
    ? `answers ${answer.error.status}${answer.error.message ? ` (${quote(answer.error.message)})` : ''}`
    : [
        answer.content !== undefined ? `answers ${quote(answer.content)}` : null,
        answer.tool_calls ? `calls ${answer.tool_calls.map((c) => c.name).join(', ')}` : null,
      ]
        .filter(Boolean)
        .join(' and ')
  const when: string[] = []
  if (match.model) when.push(`the model is ${match.model}`)
  if (match.last_user) when.push(`the last user message contains ${quote(match.last_user)}`)
  if (match.last_user_regex) when.push(`the last user message matches /${match.last_user_regex}/i`)
  if (match.system) when.push(`the system prompt contains ${quote(match.system)}`)
  if (match.system_regex) when.push(`the system prompt matches /${match.system_regex}/i`)
  if (match.tool) when.push(`the request offers the tool ${match.tool}`)
  if (match.header) when.push(`the X-Emulator-Fixture header is ${quote(match.header)}`)
  const scope = when.length > 0 ? `when ${when.join(' and ')}` : 'to every chat request of the account'
  const times = row.remaining === null ? '' : row.remaining === 0 ? ', and is used up' : `, the next ${row.remaining === 1 ? 'time' : `${row.remaining} times`}`
  const off = row.enabled ? '' : ' (disabled)'
  return `${what} ${scope}${times}${off}.`.replace(/^./, (c) => c.toUpperCase())
}

/** A fixture's regular expressions are RE2's (what the admin API takes) and its answer is one the chat route can give. */
export function checkImportedFixture(row: Readonly<Record<string, unknown>>, i: number): void {
  const bad = badRegex(JSON.parse(row['match'] as string) as ChatFixtureMatch)
  if (bad) throw importRowError('chat_fixtures', i, 'match', `holds a ${bad.field} that is not a valid regular expression: ${bad.issue}`)
  const answer = JSON.parse(row['answer'] as string) as ChatFixtureAnswer
  if (answer.error ? answer.content !== undefined || answer.tool_calls !== undefined : answer.content === undefined && answer.tool_calls === undefined)
    throw importRowError('chat_fixtures', i, 'answer', 'must hold `content` and/or `tool_calls`, or `error` alone')
  answer.tool_calls?.forEach((call, n) => {
    if (typeof call.arguments !== 'string') throw importRowError('chat_fixtures', i, 'answer', `holds tool_calls[${n}].arguments that is not JSON text`)
    try {
      JSON.parse(call.arguments)
    } catch {
      throw importRowError('chat_fixtures', i, 'answer', `holds tool_calls[${n}].arguments that is not JSON text`)
    }
  })
}
