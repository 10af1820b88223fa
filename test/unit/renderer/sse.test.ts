// The server-sent event reader the inspector uses for recorded and live streams: the same events
// however the text is split into pieces, CRLF and CR line ends, comments, multi-line data, and an
// event the text stops inside left out.
import { describe, expect, it } from 'vitest'
import { StreamAssembler } from '../../../src/renderer/src/chat/answer.ts'
import { SseParser, sseData } from '../../../src/renderer/src/chat/sse.ts'

const collect = (pieces: string[]): string[] => {
  const out: string[] = []
  const parser = new SseParser((data) => out.push(data))
  for (const piece of pieces) parser.feed(piece)
  parser.end()
  return out
}

describe('reading server-sent events', () => {
  const text = ': OPENROUTER PROCESSING\r\n\r\ndata: {"a":1}\r\n\r\nevent: x\nid: 3\ndata: line one\ndata:line two\n\ndata: [DONE]\r\r'

  it('reads data, skipping comments and other fields, with every kind of line end', () => {
    expect(sseData(text)).toEqual(['{"a":1}', 'line one\nline two', '[DONE]'])
  })

  it('gives the same events however the text is split, even between \\r and \\n', () => {
    const whole = sseData(text)
    for (let at = 0; at <= text.length; at++) expect(collect([text.slice(0, at), text.slice(at)]), `split at ${at}`).toEqual(whole)
    expect(collect([...text])).toEqual(whole)
  })

  it('leaves out an event the text stops inside', () => {
    expect(sseData('data: whole\n\ndata: half')).toEqual(['whole'])
    expect(sseData('data: whole\n\ndata: no blank line yet\n')).toEqual(['whole'])
  })
})

describe('assembling a stream as it arrives', () => {
  it('shows the answer so far at each step, and keeps earlier snapshots as they were', () => {
    const assembler = new StreamAssembler()
    assembler.push(JSON.stringify({ id: 'gen-1', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }] }))
    const first = assembler.snapshot()
    assembler.push(JSON.stringify({ choices: [{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }] }))
    assembler.push('not json')
    assembler.push('[DONE]')
    const last = assembler.snapshot()
    expect(first.choices[0]).toMatchObject({ content: 'Hel', finishReason: null })
    expect(first.done).toBe(false)
    expect(last).toMatchObject({ id: 'gen-1', model: 'm', done: true, events: 4, unreadable: 1 })
    expect(last.choices[0]).toMatchObject({ content: 'Hello', finishReason: 'stop' })
  })
})
