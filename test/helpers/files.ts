// Small files of each type the Files API reads from bytes, for the files tests and the contract test.
import { png } from './images.ts'

/** A ZIP of stored (uncompressed) entries with its central directory: how an Office document is laid out. */
export function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name)
    const data = Buffer.from(text)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    locals.push(local, nameBytes, data)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(entries).length, 8)
  end.writeUInt16LE(Object.keys(entries).length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

const office = (folder: string) => zip({ '[Content_Types].xml': '<Types/>', [`${folder}/document.xml`]: '<doc/>' })

/** One sample of each type, with the type the gateway reports for it. */
export const SAMPLES: Array<{ name: string; bytes: Buffer; mime: string }> = [
  { name: 'doc.pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n'), mime: 'application/pdf' },
  { name: 'pic.png', bytes: png(4, 4), mime: 'image/png' },
  { name: 'pic.jpg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]), mime: 'image/jpeg' },
  { name: 'pic.gif', bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), mime: 'image/gif' },
  { name: 'pic.webp', bytes: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8L')]), mime: 'image/webp' },
  { name: 'a.wav', bytes: Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]), mime: 'audio/wav' },
  { name: 'a.flac', bytes: Buffer.from('fLaC\x00\x00\x00\x22', 'latin1'), mime: 'audio/flac' },
  { name: 'a.ogg', bytes: Buffer.from('OggS\x00\x02', 'latin1'), mime: 'audio/ogg' },
  { name: 'a.mp3', bytes: Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), mime: 'audio/mpeg' },
  { name: 'frame.mp3', bytes: Buffer.from([0xff, 0xfb, 0x90, 0x64, 0x00, 0x00]), mime: 'audio/mpeg' },
  { name: 'w.docx', bytes: office('word'), mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  { name: 'x.xlsx', bytes: office('xl'), mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  { name: 'p.pptx', bytes: office('ppt'), mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
  { name: 'data.json', bytes: Buffer.from('{"a": [1, 2, {"b": null}]}\n'), mime: 'application/json' },
  { name: 'rows.jsonl', bytes: Buffer.from('{"a":1}\n{"a":2}\n[3]\n'), mime: 'application/x-ndjson' },
  { name: 'table.csv', bytes: Buffer.from('name,age,city\nAda,36,London\nAlan,41,Wilmslow\n'), mime: 'text/csv' },
  { name: 'notes.md', bytes: Buffer.from('# Notes\n\nSome *text* and a [link](https://example.com).\n'), mime: 'text/markdown' },
  { name: 'plain.txt', bytes: Buffer.from('Just a line of plain text, née café.\nAnd another one.\n'), mime: 'text/plain' },
]
