// Server-sent events as the gateway streams completions: `data:` lines, comments (`: OPENROUTER
// PROCESSING`), each event ended by a blank line. Only the data matters here. Pure (no DOM): the
// Requests view parses a recorded stream with it, the Playground a live one. The parsing itself is
// eventsource-parser's (the WHATWG rules: pieces of any size, \r\n, multi-line data, comments).
import { createParser, type EventSourceParser } from 'eventsource-parser'

/** Reads events from text fed in pieces of any size (a piece may end inside a line, or between \r and \n). */
export class SseParser {
  private readonly parser: EventSourceParser

  constructor(onData: (data: string) => void) {
    this.parser = createParser({ onEvent: (event) => onData(event.data) })
  }

  feed(text: string): void {
    this.parser.feed(text)
  }

  /** The text has ended: a \r held back is a line end after all; an event left open is dropped, as browsers do. */
  end(): void {
    this.parser.reset({ consume: true })
  }
}

/** The data of every complete event in `text`; an event the text stops inside is left out. */
export function sseData(text: string): string[] {
  const out: string[] = []
  const parser = new SseParser((data) => out.push(data))
  parser.feed(text)
  parser.end()
  return out
}
