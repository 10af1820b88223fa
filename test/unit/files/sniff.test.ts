// A file's type read from its bytes, as the Files API reports it: each type it takes, text by its
// structure, and what it refuses (null).
import { describe, expect, it } from 'vitest'
import { sniffFileType } from '../../../src/emulator/modules/files/files.sniff.ts'
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
