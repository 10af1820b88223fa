// Server-sent events as the gateway streams completions: `data:` lines, comments (`: OPENROUTER
// PROCESSING`), each event ended by a blank line. Only the data matters here; other fields are read
// past. Pure (no DOM): the Requests view parses a recorded stream with it, the Playground a live one.

/** Reads events from text fed in pieces of any size (a piece may end inside a line, or between \r and \n). */
export class SseParser {
  private buffer = ''
  private data: string[] = []
  private readonly onData: (data: string) => void

  constructor(onData: (data: string) => void) {
    this.onData = onData
  }

  feed(text: string): void {
    this.buffer += text
    let start = 0
    for (;;) {
      let end = start
      while (end < this.buffer.length && this.buffer[end] !== '\n' && this.buffer[end] !== '\r') end++
      if (end === this.buffer.length) break
      // A \r at the very end may be the first half of \r\n: wait for the next piece.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break
      this.line(this.buffer.slice(start, end))
      start = end + (this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1)
    }
    this.buffer = this.buffer.slice(start)
  }

  /** The text has ended: a \r held back is a line end after all. An event left open is dropped, as browsers do. */
  end(): void {
    if (this.buffer.endsWith('\r')) this.feed('\n')
    this.buffer = ''
    this.data = []
  }

  private line(line: string): void {
    if (line === '') {
      // The blank line ends an event; one without data (a comment alone) dispatches nothing.
      if (this.data.length > 0) this.onData(this.data.join('\n'))
      this.data = []
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    if (field !== 'data') return
    const value = colon === -1 ? '' : line.slice(colon + 1)
    this.data.push(value.startsWith(' ') ? value.slice(1) : value)
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
