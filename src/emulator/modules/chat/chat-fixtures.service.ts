// Chat fixtures: per-account rules that answer a chat or text completion with given text, given tool
// calls or an error, instead of a generated answer. The first enabled rule (by position) whose every
// condition holds answers; a rule with `times` answers that many requests, then stays listed as used up.
import type { ChatFixtureRow } from './chat-fixtures.repo.ts'
import type { ChatFixtureAnswer, ChatFixtureMatch } from './chat-fixtures.schemas.ts'

/** What a rule sees of a request. */
export interface FixtureSubject {
  model: string
  lastUser: string
  system: string
  tools: readonly string[]
  header: string | null
}

/** Why a rule does not answer a request, or null when it does. */
export function mismatch(row: ChatFixtureRow, subject: FixtureSubject): string | null {
  if (row.enabled === 0) return 'it is disabled'
  if (row.remaining !== null && row.remaining <= 0) return 'it is used up'
  const match = JSON.parse(row.match) as ChatFixtureMatch
  if (match.model !== undefined && !globMatches(match.model, subject.model)) return `the model is not ${match.model}`
  if (match.last_user !== undefined && !contains(subject.lastUser, match.last_user)) return `the last user message does not contain "${match.last_user}"`
  if (match.last_user_regex !== undefined && !new RegExp(match.last_user_regex, 'i').test(subject.lastUser))
    return `the last user message does not match /${match.last_user_regex}/i`
  if (match.system !== undefined && !contains(subject.system, match.system)) return `the system prompt does not contain "${match.system}"`
  if (match.system_regex !== undefined && !new RegExp(match.system_regex, 'i').test(subject.system))
    return `the system prompt does not match /${match.system_regex}/i`
  if (match.tool !== undefined && !subject.tools.includes(match.tool)) return `the request offers no tool ${match.tool}`
  if (match.header !== undefined && subject.header !== match.header) return `the X-Emulator-Fixture header is not "${match.header}"`
  return null
}

/** The first of a rule's regular expressions that does not compile, with why; null when all do. */
export function badRegex(match: ChatFixtureMatch): { field: 'last_user_regex' | 'system_regex'; issue: string } | null {
  for (const field of ['last_user_regex', 'system_regex'] as const) {
    const pattern = match[field]
    if (pattern === undefined) continue
    try {
      new RegExp(pattern, 'i')
    } catch (error) {
      return { field, issue: (error as Error).message }
    }
  }
  return null
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
