// Recordings as the text engine's first answer source: a recording of the --replay folder that answers
// an ask (through any text surface) gives its answers, billed at its recorded usage and cost and paced
// by its recorded timing. Registered with the engine by the recordings module; asked before the
// upstream gateway (recordings-proxy.service.ts), chat fixtures and written answers.
import { countTokens, loadTokenizer } from '../../core/tokens.ts'
import type { AuthContext } from '../caller.ts'
import type { CatalogEndpoint, CatalogModel } from '../catalog/catalog.schemas.ts'
import { routeByPreferences } from '../catalog/catalog-routing.service.ts'
import { recordedNanos } from '../meter/meter-pricers.service.ts'
import { meter, servedBy } from '../meter/meter.service.ts'
import type { EmulatorContext } from '../module.ts'
import { recordCompletion, textGeneration, type AnswerSource, type Completion, type TextAsk, type TextCall } from '../text/text-engine.service.ts'
import { givenAnswer, type Answer, type AnswerRequest, type FinishReason } from '../text/text-answer.service.ts'
import type { RecordedText } from './recordings-format.service.ts'

/**
 * A recording that answers an ask: what it says, and the model and endpoints it is billed through
 * (the catalog's, or a stand-in named by the recording where the catalog lacks its model).
 */
export interface RecordedTextAnswer {
  /** The file, relative to the --replay folder. */
  file: string
  text: RecordedText
  model: CatalogModel
  endpoints: readonly CatalogEndpoint[]
}

/** The recordings, as the engine asks them. */
export function recordingsSource(ctx: EmulatorContext): AnswerSource {
  return {
    name: 'recordings',
    order: 100,
    async answer(_ctx, caller, ask, call) {
      const recordings = ctx.services.recordings
      // Should another request use a recording up meanwhile, the next one that matches is tried.
      for (let found = recordings.findText(ask, call.origin.fixture); found; found = recordings.findText(ask, call.origin.fixture)) {
        const replayed = await replayText(ctx, caller, ask, call, found)
        if (replayed) return replayed
      }
      // No recording: under --on-miss error this is the no-match error; otherwise the next source answers.
      recordings.missed(ask)
      return null
    },
    answersModel: (id) => ctx.services.recordings.answersModel(id),
  }
}

/** Chat's finish reasons an answer can have; a recorded other one (`content_filter`) ends as `stop`. */
const finishOf = (recorded: string): FinishReason => (recorded === 'length' || recorded === 'tool_calls' ? recorded : 'stop')

/**
 * One answer of a recording: its text (cut by `stop` and the max tokens as a fixture's), or its tool
 * calls (ids drawn from the request's stream, so the same request gets the same ids), and its
 * reasoning. `whole` when nothing was cut: its finish reason is then the recorded one.
 */
function recordedAnswer(request: AnswerRequest, found: RecordedTextAnswer, choice: number): { answer: Answer; whole: boolean } {
  const given = found.text.choices[choice % found.text.choices.length]!
  const calls = given.tool_calls?.map((c) => ({ name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) }))
  const written = givenAnswer(request, { content: given.content ?? undefined, tool_calls: calls }, `recording:${found.file}:${choice}`)
  const whole = written.finishReason !== 'length' && (calls !== undefined || written.content === (given.content ?? ''))
  const answer: Answer = whole ? { ...written, finishReason: finishOf(given.finish_reason) } : written
  if (!given.reasoning) return { answer, whole }
  // Reasoning comes as it was recorded: a model that reasons unasked did so upstream too.
  const reasoningTokens = countTokens(given.reasoning)
  return { answer: { ...answer, reasoning: given.reasoning, reasoningTokens, completionTokens: answer.completionTokens + reasoningTokens }, whole }
}

/**
 * Answers `ask` from a recording: billed at the recorded cost (not the catalog's prices) through the
 * meter (the rate limit, then credits, guardrails and key limits), with the recorded token counts
 * where the answer is given whole (the counts of what was given where a loosened match cut it), the
 * generation recorded, and the recording's use counted in the same transaction (a 402 uses none).
 * Null when another request used the recording up meanwhile.
 */
async function replayText(ctx: EmulatorContext, caller: AuthContext, ask: TextAsk, call: TextCall, found: RecordedTextAnswer): Promise<Completion | null> {
  await loadTokenizer()
  const { text, model } = found
  const request: AnswerRequest = {
    seed: ctx.config.seed,
    model: model.id,
    requestSeed: ask.seed,
    messages: ask.messages,
    tools: ask.tools,
    toolChoice: ask.toolChoice,
    parallel: ask.parallel ?? true,
    format: ask.format,
    maxTokens: ask.maxTokens ?? Number.MAX_SAFE_INTEGER,
    stop: ask.stop,
    answerTokens: 0,
    reasoningTokens: 0,
    fields: ask.fields,
    fitted: { tools: new Map(), format: null },
  }
  const given = Array.from({ length: ask.choices }, (_, choice) => recordedAnswer(request, found, choice))
  const answers = given.map((g) => g.answer)
  const whole = ask.choices === text.choices.length && given.every((g) => g.whole)
  const promptTokens = text.usage.prompt_tokens
  const completionTokens = whole ? text.usage.completion_tokens : answers.reduce((n, a) => n + a.completionTokens, 0)
  const reasoningTokens = whole && text.usage.reasoning_tokens !== undefined ? text.usage.reasoning_tokens : answers.reduce((n, a) => n + a.reasoningTokens, 0)

  const timing = (endpoint: CatalogEndpoint) => {
    const served = servedBy(endpoint, { latencyS: 0.5, tokensPerSecond: 50 })
    const first = text.timing?.first_token_ms
    return { latencyMs: first == null ? served.latencyMs : Math.round(first), tokensPerSecond: text.timing?.tokens_per_second ?? served.tokensPerSecond }
  }
  return meter(ctx, {
    caller,
    operation: call.operation,
    model: { id: model.id, canonical_slug: model.canonical_slug },
    endpoints: found.endpoints,
    region: call.region,
    route: routeByPreferences(model, ask.provider ?? undefined),
    proceed: () => ctx.services.recordings.usable(found.file),
    tokens: { prompt: promptTokens, completion: completionTokens, reasoning: reasoningTokens },
    price: () => recordedNanos(text.usage.cost),
    generation: (endpoint) => textGeneration(ask, call, { answers, completionTokens, ...timing(endpoint) }),
    after: (metered) => {
      const source = { kind: 'replayed', file: found.file } as const
      const completion = recordCompletion(ctx, caller, ask, call, {
        metered,
        model,
        answers,
        promptTokens,
        completionTokens,
        reasoningTokens,
        imageCount: 0,
        ...timing(metered.endpoint),
        source,
      })
      ctx.services.recordings.use(found.file)
      return completion
    },
  })
}
