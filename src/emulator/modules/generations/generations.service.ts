// What a text generation's content is kept as: its input (a legacy completion's prompt, or the
// messages as the engine read them: role, text and tool calls) and its first answer's text and
// reasoning. Bounded (each part cut at a fixed size, saying how much was cut) and redacted (the
// emulator's own keys never kept), in the transaction that records the generation.
import { redact } from '../../core/redact.ts'
import type { Answer } from '../chat/chat.answer.ts'
import type { Message } from '../chat/chat.input.ts'
import type { GenerationView } from '../chat/chat.repo.ts'
import type { ContentRow, GenerationsContentRepo } from './generations.repo.ts'
import type { ContentInput, GenerationContent } from './generations.schemas.ts'

/** The most characters of input kept for one generation (the messages' texts together). */
export const MAX_INPUT_CHARS = 1024 * 1024
/** The most characters of the answer kept, and of its reasoning. */
export const MAX_OUTPUT_CHARS = 1024 * 1024

/** `text` redacted, and cut to what is left of `budget.left` (which it uses up). */
function bounded(text: string, budget: { left: number }): string {
  const clean = redact(text)
  if (clean.length <= budget.left) {
    budget.left -= clean.length
    return clean
  }
  const kept = clean.slice(0, budget.left)
  budget.left = 0
  return `${kept}…[${clean.length - kept.length} more characters not kept]`
}

function inputOf(operation: string, messages: readonly Message[]): ContentInput {
  const budget = { left: MAX_INPUT_CHARS }
  // The legacy completion's prompt is its one user message.
  if (operation === 'completions.create') return { prompt: bounded(messages[0]?.text ?? '', budget) }
  return {
    messages: messages.map((m) => ({
      role: m.role,
      content: bounded(m.text, budget),
      ...(m.toolCalls.length > 0 && {
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: bounded(c.function.arguments, budget) } })),
      }),
    })),
  }
}

export interface KeptGeneration {
  generationId: string
  accountId: string
  /** The surface's operation id (`completions.create` keeps a prompt, the rest messages). */
  operation: string
  messages: readonly Message[]
  answers: readonly Answer[]
}

export function contentRow(kept: KeptGeneration): ContentRow {
  const answer = kept.answers[0]
  return {
    generation_id: kept.generationId,
    account_id: kept.accountId,
    input: JSON.stringify(inputOf(kept.operation, kept.messages)),
    completion: answer?.content == null ? null : bounded(answer.content, { left: MAX_OUTPUT_CHARS }),
    reasoning: answer?.reasoning == null ? null : bounded(answer.reasoning, { left: MAX_OUTPUT_CHARS }),
  }
}

/** The content as the API shows it; a generation that ended in an error (a stream broken by a fault) says so. */
export function contentView(row: ContentRow, generation: GenerationView): GenerationContent {
  return {
    input: JSON.parse(row.input) as ContentInput,
    output: { completion: row.completion, reasoning: row.reasoning },
    error:
      generation.finish_reason === 'error'
        ? { status: null, message: 'The answer was broken part way (a fault rule)', provider_name: generation.provider, raw: null, previous_errors: [] }
        : null,
  }
}

export interface GenerationsService {
  repo: GenerationsContentRepo
  /** Keeps a text generation's content; call inside the transaction that records the generation. */
  keep(kept: KeptGeneration): void
}

export function createGenerationsService(repo: GenerationsContentRepo): GenerationsService {
  return { repo, keep: (kept) => repo.insertContent(contentRow(kept)) }
}
