// The text engine's two kinds of port. A text surface (chat and text completions, the Responses API,
// the Messages API) registers how it reads a request into the engine's ask and what its answers and
// errors look like on the wire; an answer source (a recording, a chat fixture or a written answer)
// registers how it answers an ask, in an order the engine walks once per request. The engine and the
// areas that work on every surface (record and replay, presets) go through what is registered, so
// neither the engine nor they import a surface or a source; a route says which surface it is by its
// `config.text`.
import type { EmulatorContext } from '../module.ts'
import type { AnswerSource, TextAsk } from './text-engine.service.ts'
import type { UpstreamReader } from './text-upstream.service.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The text surface the route is (its name, as registered with the engine). */
    text?: string
  }
}

/** How a surface reads one of its bodies into a preset (the presets area's content, in chat's names), and writes one into a body. */
export interface PresetPort {
  read(body: unknown): unknown
  /** Writes `preset` (a version's content) into a parsed body, in place, the request's own fields winning; `named` is how the body named it. */
  apply(body: Record<string, unknown>, preset: unknown, named: unknown): void
}

export interface TextSurface {
  /** Its name, as its routes declare it (`config.text`). */
  readonly name: string
  /** Its operation id: the journal's, the usage rows' and a recording file's `operation`. */
  readonly operation: string
  /** A checked body as the engine's ask; a body it refuses throws its 400, in its own words. */
  ask(ctx: EmulatorContext, body: unknown): TextAsk
  /** The envelope its errors are answered in: the gateway's, or Anthropic's. */
  readonly envelope: 'main' | 'anthropic'
  /** The event a stream relayed from elsewhere ends with when it broke part way, in its words. */
  streamErrorFrame(status: number, message: string): string
  /** How an upstream gateway's answers on it read (its JSON, its stream's events), for record and replay. */
  readonly upstream: UpstreamReader
  /** How a preset is made from its bodies; none where it takes no preset. */
  readonly preset?: PresetPort
}

/** What is registered with the engine: the surfaces in the order they came, the sources in theirs. */
export class TextPorts {
  readonly #surfaces: TextSurface[] = []
  #sources: AnswerSource[] = []
  /** What each body was read into, while the request lives: a hook before the handler and the handler read it once. */
  readonly #parsed = new WeakMap<object, unknown>()

  /** `parse()` of a request's body, the first time; what it gave, after. A body it refuses is refused again. */
  parseOnce<T>(body: unknown, parse: () => T): T {
    if (body === null || typeof body !== 'object') return parse()
    if (this.#parsed.has(body)) return this.#parsed.get(body) as T
    const parsed = parse()
    this.#parsed.set(body, parsed)
    return parsed
  }

  registerSurface<S extends TextSurface>(surface: S): S {
    if (this.#surfaces.some((s) => s.name === surface.name || s.operation === surface.operation))
      throw new Error(`text surface ${surface.name} (${surface.operation}) is registered twice`)
    this.#surfaces.push(surface)
    return surface
  }

  registerSource(source: AnswerSource): void {
    if (this.#sources.some((s) => s.name === source.name)) throw new Error(`answer source ${source.name} is registered twice`)
    this.#sources = [...this.#sources, source].sort((a, b) => a.order - b.order)
  }

  surfaces(): readonly TextSurface[] {
    return this.#surfaces
  }

  /** The surface a route declares (`config.text`). */
  surface(name: string): TextSurface | undefined {
    return this.#surfaces.find((s) => s.name === name)
  }

  /** The surface of an operation id. */
  byOperation(operation: string): TextSurface | undefined {
    return this.#surfaces.find((s) => s.operation === operation)
  }

  sources(): readonly AnswerSource[] {
    return this.#sources
  }

  /** Whether some source answers a model the catalog lacks. */
  answersModel(id: string): boolean {
    return this.#sources.some((s) => s.answersModel?.(id) === true)
  }
}
