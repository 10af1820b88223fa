// The ID3v2 tag at the head of the emulator's MP3s: one TXXX frame holding the text that was spoken,
// so a transcription of the file gives it back (an encoder loses the low bits that carry it in PCM).
// Players skip the tag; any ID3 reader shows it as a user-defined text field.

/** The TXXX frame's description: what marks the text as the emulator's. */
export const ID3_DESCRIPTION = 'model-gateway-emulator:input'

const syncsafe = (n: number): Buffer => Buffer.from([(n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f])
const readSyncsafe = (bytes: Uint8Array, at: number): number => (bytes[at]! << 21) | (bytes[at + 1]! << 14) | (bytes[at + 2]! << 7) | bytes[at + 3]!

/** An ID3v2.4 tag with one UTF-8 TXXX frame. */
export function id3Tag(text: string): Buffer {
  const body = Buffer.concat([Buffer.from([3]), Buffer.from(ID3_DESCRIPTION, 'utf8'), Buffer.from([0]), Buffer.from(text, 'utf8')])
  const frame = Buffer.concat([Buffer.from('TXXX', 'latin1'), syncsafe(body.length), Buffer.from([0, 0]), body])
  return Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0]), syncsafe(frame.length), frame])
}

/** Bytes of the ID3v2 tag at the start (header, body and footer), 0 when there is none. */
export function id3Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0
  if (bytes[3] === 0xff || bytes[4] === 0xff || (bytes[6]! | bytes[7]! | bytes[8]! | bytes[9]!) & 0x80) return 0
  const footer = bytes[5]! & 0x10 ? 10 : 0
  return Math.min(bytes.length, 10 + readSyncsafe(bytes, 6) + footer)
}

/** The emulator's text in an ID3v2.3 or 2.4 tag at the start, or null. */
export function id3Text(bytes: Uint8Array): string | null {
  const end = id3Length(bytes)
  if (end === 0) return null
  const version = bytes[3]!
  // An unsynchronised or extended header is not what the emulator writes.
  if ((version !== 3 && version !== 4) || bytes[5]! & 0xc0) return null
  const marker = Buffer.from(`\u0003${ID3_DESCRIPTION}\u0000`, 'latin1')
  for (let at = 10; at + 10 <= end;) {
    const id = Buffer.from(bytes.subarray(at, at + 4)).toString('latin1')
    if (!/^[A-Z0-9]{4}$/.test(id)) return null
    const size = version === 4 ? readSyncsafe(bytes, at + 4) : Buffer.from(bytes.subarray(at + 4, at + 8)).readUInt32BE(0)
    const body = Buffer.from(bytes.subarray(at + 10, Math.min(end, at + 10 + size)))
    if (id === 'TXXX' && body.subarray(0, marker.length).equals(marker)) return body.subarray(marker.length).toString('utf8')
    at += 10 + size
  }
  return null
}
