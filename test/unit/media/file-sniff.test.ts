// A file's type read from its bytes, as the Files API reports it: each type it takes, text by its
// structure, and what it refuses (null); what the first bytes alone decide is what the whole decides;
// JSON and Markdown found as JSON.parse and the patterns used before find them (compared on many
// generated texts), in time linear in the text (a Markdown pattern took minutes on 1 MB of `[a`).
import { describe, expect, it } from 'vitest'
import { hasMarkdown, isJsonText, sniffFileType, sniffHead } from '../../../src/emulator/media/file-sniff.ts'
import { createRng } from '../../../src/emulator/core/rng.ts'
import { SAMPLES, zip } from '../../helpers/files.ts'

describe('sniffFileType', () => {
  it.each(SAMPLES.map((s) => [s.name, s] as const))('reads %s', (_name, sample) => {
    expect(sniffFileType(sample.bytes)).toBe(sample.mime)
  })

  it('goes by the bytes, not by what a name would say', () => {
    expect(sniffFileType(Buffer.from('%PDF-1.4 but named .txt'))).toBe('application/pdf')
    expect(sniffFileType(Buffer.from('{"looks": "like json", but: not}'))).toBe('text/plain')
  })

  it('tells CSV, NDJSON, Markdown and plain text apart by their structure', () => {
    expect(sniffFileType(Buffer.from('a,b\n1,2\r\n3,4'))).toBe('text/csv')
    expect(sniffFileType(Buffer.from('a,b\n1,2,3'))).toBe('text/plain')
    expect(sniffFileType(Buffer.from('{"a":1}'))).toBe('application/json')
    expect(sniffFileType(Buffer.from('{"a":1}\n{"b":2}'))).toBe('application/x-ndjson')
    expect(sniffFileType(Buffer.from('{"a":1}\nnot json'))).toBe('text/plain')
    expect(sniffFileType(Buffer.from('- one\n- two'))).toBe('text/markdown')
    expect(sniffFileType(Buffer.from('```ts\nconst a = 1\n```'))).toBe('text/markdown')
    expect(sniffFileType(Buffer.from('\ufeffhello'))).toBe('text/plain')
  })

  it('refuses binary data, invalid UTF-8, other archives and media it does not take', () => {
    expect(sniffFileType(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBeNull()
    expect(sniffFileType(Buffer.from('text with a NUL\u0000 inside'))).toBeNull()
    expect(sniffFileType(Buffer.from([0x68, 0x69, 0xc3, 0x28]))).toBeNull()
    expect(sniffFileType(zip({ 'readme.txt': 'hello' }))).toBeNull()
    expect(sniffFileType(zip({ '[Content_Types].xml': '<Types/>', 'other/x.xml': '<x/>' }))).toBeNull()
    expect(sniffFileType(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]))).toBeNull()
    // An MP4 (ftyp box) and a ZIP cut before its directory.
    expect(sniffFileType(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42')]))).toBeNull()
    expect(sniffFileType(zip({ '[Content_Types].xml': '<Types/>', 'word/d.xml': '<d/>' }).subarray(0, 60))).toBeNull()
  })
})

describe('the first bytes', () => {
  it('decide only what the whole file decides', () => {
    const heads = [...SAMPLES.map((s) => s.bytes), Buffer.from([0x00, 0x41]), Buffer.from('plain text'), zip({ 'a.txt': 'x' }), Buffer.from([0x1f, 0x8b])]
    for (const bytes of heads) {
      const head = sniffHead(bytes)
      if (head !== undefined) expect(sniffFileType(bytes)).toBe(head)
    }
    // Text and ZIPs take the whole file.
    expect(sniffHead(Buffer.from('{"a": 1}'))).toBeUndefined()
    expect(sniffHead(zip({ 'a.txt': 'x' }))).toBeUndefined()
    expect(sniffHead(Buffer.from([0x00, 0x41]))).toBeNull()
  })
})

/** Random texts made of `pieces`, `count` of them, each of up to `most` pieces, the same on every run. */
function texts(label: string, pieces: readonly string[], count: number, most: number): string[] {
  const rng = createRng(35, label)
  return Array.from({ length: count }, () => Array.from({ length: rng.int(0, most) }, () => rng.pick(pieces)).join(''))
}

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** The Markdown pattern used before (quadratic in a text of many `[` and no `]`). */
const MARKDOWN_BEFORE = /^(#{1,6} \S|[-*+] \S|\d+\. \S|> |```|\|.*\|\s*$)|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*/m

describe('JSON and Markdown, found in one pass', () => {
  it('JSON is what JSON.parse takes, on 100,000 generated texts', () => {
    const pieces = ['{', '}', '[', ']', ',', ':', '"', '"a"', '"\\u00e9"', '"\\x"', '\\', '1', '0', '-', '.', 'e', 'E', '+', '01', '1.5', '-0', '2e-3']
    const more = ['true', 'tru', 'null', 'false', ' ', '\n', '\t', '\r', '\u00a0', 'x', '"\u0001"', '"\\n"', '{"k":1}', '[1,2]', '""', '\ufeff']
    let valid = 0
    for (const text of texts('json', [...pieces, ...more], 100_000, 10)) {
      expect(isJsonText(text), JSON.stringify(text)).toBe(parses(text))
      if (parses(text)) valid++
    }
    // The generated texts hold both.
    expect(valid).toBeGreaterThan(1000)
  })

  it('JSON nested as deep as JSON.parse takes it', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    expect(parses(deep)).toBe(true)
    expect(isJsonText(deep)).toBe(true)
    expect(isJsonText(deep.slice(1))).toBe(false)
  })

  it.each([
    ['any Markdown', ['[', ']', '(', ')', 'a', '\n', '*', '#', ' ', '-', '|', '1', '.', '>', '`', '\t'], 14, 2_000],
    ['links', ['[', ']', '(', ')', 'a', '\n'], 24, 5_000],
  ])('%s: what the pattern before found, on 200,000 generated texts', (label, pieces, most, least) => {
    let found = 0
    for (const text of texts(label, pieces, 200_000, most)) {
      expect(hasMarkdown(text), JSON.stringify(text)).toBe(MARKDOWN_BEFORE.test(text))
      if (MARKDOWN_BEFORE.test(text)) found++
    }
    // The generated texts hold both.
    expect(found).toBeGreaterThan(least)
  })

  it.each([
    ['`[a` over and over (took minutes)', '[a'.repeat(1 << 19)],
    ['arrays in arrays', '['.repeat(1 << 19) + ']'.repeat(1 << 19)],
    ['empty arrays in an array', `[${'[],'.repeat(1 << 18)}[]]`],
    ['bold that never closes', '**a'.repeat(1 << 18)],
    ['table rows of pipes', `${'|'.repeat(64)}${' '.repeat(64)}\n`.repeat(1 << 13)],
    ['one long number', '1'.repeat(1 << 20)],
    ['links that never close', '[a]('.repeat(1 << 18)],
    ['two lines of commas', `${','.repeat(1 << 19)}\n${','.repeat(1 << 19)}`],
  ])('takes a 1 MB text of %s in linear time', (_name, text) => {
    const started = performance.now()
    sniffFileType(Buffer.from(text))
    // About 15 ms each here; the quadratic pattern took 1.5 s on 80 KB.
    expect(performance.now() - started).toBeLessThan(500)
  })
})
