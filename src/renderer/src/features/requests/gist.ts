// What the request list shows of a completion, so one chat can be told from the next: the model it
// asked for and the start of its last user message, read from the request body the journal kept
// (chat and text completions, Responses, Messages). Nothing is shown for a body the journal cut or
// that is not JSON. Pure: no DOM, no requests.
import type { JournalEntry } from '../../../../emulator/admin/types.ts'
import { messagesRequestView } from '../../chat/messages.ts'
import { requestView, type RequestView } from '../../chat/request.ts'
import { responsesRequestView } from '../../chat/responses.ts'
import { jsonBody } from './body.ts'

const READERS: Record<string, (body: unknown) => RequestView> = {
  'chat.create': requestView,
  'completions.create': requestView,
  'responses.create': responsesRequestView,
  'messages.create': messagesRequestView,
}

/** True for the operations whose rows show a model and a message. */
export const hasGist = (operation: string): boolean => operation in READERS

export interface Gist {
  model: string | null
  /** The last user message (a text completion's prompt), whitespace collapsed; its non-text parts as `[image]`... when it has no text. */
  message: string | null
}

/** The longest message the list keeps whole (in the cell's title); longer ones are cut there too. */
const TITLE_LIMIT = 2_000

export function gistOf(entry: Pick<JournalEntry, 'operation' | 'request'>): Gist | null {
  const read = READERS[entry.operation]
  if (!read) return null
  const body = jsonBody(entry.request.body, 'request')
  if ('problem' in body) return null
  const view = read(body.value)
  const last = view.messages.findLast((m) => m.role === 'user' || m.role === 'prompt')
  const text = last?.parts
    .filter((part) => part.kind === 'text')
    .map((part) => part.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim()
  const media = last?.parts.flatMap((part) => (part.kind === 'media' ? [`[${part.label}]`] : [])).join(' ')
  const message = text || media || null
  const model = view.model ?? view.models[0] ?? null
  if (model === null && message === null) return null
  return { model, message: message && message.length > TITLE_LIMIT ? `${message.slice(0, TITLE_LIMIT)}…` : message }
}

/** The start of `text`, at most `max` characters, cut after a whole word where one ends late enough, with `…`. */
export function excerpt(text: string, max = 56): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`
}
