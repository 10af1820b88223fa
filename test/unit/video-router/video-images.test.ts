// inspectImage: the video router's image inputs (URL, data URI, raw base64), identified from their
// bytes, measured from their headers, and checked for size and aspect ratio.
import { describe, expect, it } from 'vitest'
import { ImageProblem, inspectImage, MAX_IMAGE_BYTES, type ImageFormat } from '../../../src/emulator/media/image-inspect.ts'
import { dataUri, jpeg, png, webp } from '../../helpers/images.ts'

const MIB = 1024 * 1024

// Real files from cwebp (libwebp) for the two WebP kinds the helper does not write: a solid-color
// lossy 300x200 ("VP8 ") and a half-transparent 200x300 with alpha ("VP8X", ALPH + VP8).
const LOSSY_WEBP_300x200 =
  'UklGRrQAAABXRUJQVlA4IKgAAACwEACdASosAcgAPtFosVMoJiSioCgBABoJaW7hdrEe3AAAE9gHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOFAAP6U//UOKQ9D//1qoVPAANbQAAAAAAAAAAA='
const EXTENDED_WEBP_200x300 =
  'UklGRvYAAABXRUJQVlA4WAoAAAAQAAAAxwAAKwEAQUxQSAoAAAABB1DAiAhERP8DVlA4IMYAAADwEACdASrIACwBPtFosVMoJiSioCgBABoJaW7hdrEQnAAAE9gHvtk5D4D9LuqhSXVm6G8A99snIe+2Yy09snIe+2TkPfbJyHvtk5D6F9LteLk5D32ych77ZOQ99sxlp7ZOQ99snIe+2TkPfbJyIgeTkPfbJyHvtk5D32ych77cy/T2ych77ZOQ99snIe+2TEAA/v9Bi//iIRhyYf/61MjHz/P50GaeeGaedKTJ0SPAYWdFibIItyJQItyJQItyJQItyJQIAAA='

const builders: Record<ImageFormat, { build: (w: number, h: number) => Buffer; mime: string }> = {
  png: { build: png, mime: 'image/png' },
  jpeg: { build: jpeg, mime: 'image/jpeg' },
  webp: { build: webp, mime: 'image/webp' },
}

async function problem(value: string): Promise<ImageProblem> {
  try {
    await inspectImage(value)
  } catch (err) {
    expect(err).toBeInstanceOf(ImageProblem)
    return err as ImageProblem
  }
  throw new Error('expected an ImageProblem')
}

const SIZES: Array<[number, number]> = [
  [1, 1],
  [16, 16],
  [300, 200],
  [200, 600],
  [1280, 720],
  [399, 100], // 3.99:1
  [100, 399], // 1:3.99
]

describe('inline images: format and size from the bytes', () => {
  for (const format of ['png', 'jpeg', 'webp'] as const) {
    const { build, mime } = builders[format]
    for (const [width, height] of SIZES) {
      const bytes = build(width, height)
      const expected = { kind: 'inline', format, width, height, bytes: bytes.length }
      it(`${format} ${width}x${height} as a data URI`, async () => {
        expect(await inspectImage(dataUri(bytes, mime))).toEqual(expected)
      })
      it(`${format} ${width}x${height} as raw base64`, async () => {
        expect(await inspectImage(bytes.toString('base64'))).toEqual(expected)
      })
    }
  }

  it('accepts base64 without its padding', async () => {
    const bytes = png(30, 20) // not a multiple of 3 long, so its base64 is padded
    expect(bytes.length % 3).not.toBe(0)
    const unpadded = bytes.toString('base64').replace(/=+$/, '')
    expect(await inspectImage(unpadded)).toEqual({ kind: 'inline', format: 'png', width: 30, height: 20, bytes: bytes.length })
  })

  it('accepts image/jpg and an upper-case mime', async () => {
    expect(await inspectImage(dataUri(jpeg(40, 30), 'image/jpg'))).toMatchObject({ format: 'jpeg', width: 40, height: 30 })
    expect(await inspectImage(dataUri(png(40, 30), 'IMAGE/PNG'))).toMatchObject({ format: 'png', width: 40, height: 30 })
  })

  it('reads lossy (VP8) and extended (VP8X) WebP headers', async () => {
    expect(await inspectImage(`data:image/webp;base64,${LOSSY_WEBP_300x200}`)).toEqual({ kind: 'inline', format: 'webp', width: 300, height: 200, bytes: 188 })
    expect(await inspectImage(EXTENDED_WEBP_200x300)).toEqual({ kind: 'inline', format: 'webp', width: 200, height: 300, bytes: 254 })
  })

  it('trusts the bytes over the declared mime', async () => {
    expect(await inspectImage(dataUri(jpeg(300, 200), 'image/png'))).toMatchObject({ format: 'jpeg', width: 300, height: 200 })
    expect(await inspectImage(dataUri(png(64, 48), 'image/webp'))).toMatchObject({ format: 'png', width: 64, height: 48 })
    expect(await inspectImage(dataUri(webp(48, 64), 'image/jpeg'))).toMatchObject({ format: 'webp', width: 48, height: 64 })
  })
})

describe('JPEG marker walk', () => {
  const segment = (marker: number, body: Buffer) => {
    const head = Buffer.from([0xff, marker, 0, 0])
    head.writeUInt16BE(body.length + 2, 2)
    return Buffer.concat([head, body])
  }
  const sof = (marker: number, width: number, height: number) => {
    const body = Buffer.from([8, 0, 0, 0, 0, 1, 1, 0x11, 0])
    body.writeUInt16BE(height, 1)
    body.writeUInt16BE(width, 3)
    return segment(marker, body)
  }
  const SOI = Buffer.from([0xff, 0xd8])
  const EOI = Buffer.from([0xff, 0xd9])

  it('skips DHT, JPG and DAC (C4, C8, CC), fill bytes and APPn segments to a progressive SOF2', async () => {
    const bytes = Buffer.concat([
      SOI,
      segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
      segment(0xc4, Buffer.alloc(30, 1)),
      segment(0xc8, Buffer.alloc(3)),
      Buffer.from([0xff, 0xff]), // fill bytes before the next marker
      segment(0xcc, Buffer.alloc(2)),
      segment(0xdb, Buffer.alloc(65)),
      sof(0xc2, 640, 480),
      EOI,
    ])
    expect(await inspectImage(bytes.toString('base64'))).toEqual({ kind: 'inline', format: 'jpeg', width: 640, height: 480, bytes: bytes.length })
  })

  it('finds a frame header that sits past large metadata segments (beyond the first decoded prefix)', async () => {
    const app = (n: number) => segment(0xe1 + n, Buffer.alloc(65_000, n))
    const bytes = Buffer.concat([SOI, app(0), app(1), app(2), app(3), app(4), sof(0xc0, 1024, 576), EOI])
    expect(bytes.length).toBeGreaterThan(256 * 1024)
    expect(await inspectImage(bytes.toString('base64'))).toMatchObject({ format: 'jpeg', width: 1024, height: 576 })
  })

  it('rejects a JPEG that reaches its scan (SOS) or ends before any frame header', async () => {
    const noFrame = Buffer.concat([SOI, segment(0xdb, Buffer.alloc(65)), segment(0xda, Buffer.alloc(10)), EOI])
    expect((await problem(noFrame.toString('base64'))).reason).toBe('ImageFormatInvalid')
    const cut = Buffer.concat([SOI, segment(0xe0, Buffer.alloc(100))]).subarray(0, 60)
    expect(await problem(cut.toString('base64'))).toMatchObject({ reason: 'ImageFormatInvalid', detail: expect.stringMatching(/truncated/) })
  })
})

describe('URLs', () => {
  it.each(['https://example.com/frame.png', 'http://localhost:8080/a/b.jpg?x=1#y', 'HTTPS://cdn.example.org/img'])(
    '%s is accepted as is (not fetched)',
    async (url) => {
      expect(await inspectImage(url)).toEqual({ kind: 'url', url })
    },
  )

  it('rejects an http(s) string that is not a URL', async () => {
    expect((await problem('https://')).reason).toBe('ImageFormatInvalid')
    expect((await problem('http://exa mple.com/x.png')).reason).toBe('ImageFormatInvalid')
  })
})

describe('aspect ratio: strictly between 1:4 and 4:1', () => {
  const cases: Array<[ImageFormat, number, number, boolean]> = [
    ['png', 400, 100, false],
    ['png', 100, 400, false],
    ['jpeg', 800, 200, false],
    ['webp', 200, 800, false],
    ['png', 399, 100, true],
    ['jpeg', 100, 399, true],
    ['webp', 1000, 251, true],
    ['png', 1000, 200, false],
  ]
  it.each(cases)('%s %ix%i accepted: %s', async (format, width, height, ok) => {
    const value = builders[format].build(width, height).toString('base64')
    if (ok) expect(await inspectImage(value)).toMatchObject({ format, width, height })
    else expect((await problem(value)).reason).toBe('PageSizeOutOfRange')
  })

  it('says what the ratio is', async () => {
    expect((await problem(png(1000, 200).toString('base64'))).detail).toBe('aspect ratio 5:1 (1000x200) is outside 1:4 to 4:1 (exclusive)')
    expect((await problem(png(100, 400).toString('base64'))).detail).toBe('aspect ratio 1:4 (100x400) is outside 1:4 to 4:1 (exclusive)')
    expect((await problem(webp(4001, 1000).toString('base64'))).detail).toMatch(/^aspect ratio 4:1 \(4001x1000\)/)
  })
})

describe('not an image', () => {
  const header = png(300, 200)
  const badCrc = Buffer.from(header)
  badCrc[20] = 0x7f // the height changes, the IHDR checksum does not
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['garbage base64 characters', '!!!not*base64!!!'],
    ['plain text', 'a photo of a cat'],
    ['base64 of text', Buffer.from('hello, this is not an image at all').toString('base64')],
    ['base64 with an impossible length', 'iVBORw0KG'],
    ['base64 with misplaced padding', 'iVBO=w0KGgo='],
    ['a text/plain data URI', `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`],
    ['an image/gif data URI', 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'],
    ['a data URI that is not base64', 'data:image/png,%89PNG'],
    ['a data URI with no comma', 'data:image/png;base64'],
    ['a data URI with garbage payload', 'data:image/png;base64,@@@@'],
    ['a GIF as raw base64', 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'],
    ['a truncated PNG (inside IHDR)', header.subarray(0, 20).toString('base64')],
    ['a PNG signature only', header.subarray(0, 8).toString('base64')],
    ['a PNG with a corrupt IHDR', badCrc.toString('base64')],
    ['a truncated JPEG', jpeg(64, 64).subarray(0, 40).toString('base64')],
    ['a truncated WebP header', webp(64, 64).subarray(0, 24).toString('base64')],
    ['a WebP shorter than its RIFF size', Buffer.from(LOSSY_WEBP_300x200, 'base64').subarray(0, 100).toString('base64')],
    ['RIFF that is not WebP', Buffer.concat([Buffer.from('RIFF\x24\0\0\0WAVEfmt ', 'latin1'), Buffer.alloc(32)]).toString('base64')],
  ]
  it.each(cases)('%s → ImageFormatInvalid', async (_name, value) => {
    const err = await problem(value)
    expect(err.reason).toBe('ImageFormatInvalid')
    expect(err.detail.length).toBeGreaterThan(10)
  })

  it('names the problem in plain words', async () => {
    expect((await problem(Buffer.from('GIF89a....').toString('base64'))).detail).toBe('the bytes are not a PNG, JPEG or WebP image')
    expect((await problem('data:text/plain;base64,aGVsbG8=')).detail).toMatch(/image\/png, image\/jpeg or image\/webp, not text\/plain/)
  })
})

describe('size limit', () => {
  // A real PNG header (signature + IHDR, 33 bytes = 44 base64 characters) followed by zero bytes:
  // the decoded length is whatever the string length says, without building the bytes.
  const head = png(640, 480).subarray(0, 33).toString('base64')
  const ofDecodedSize = (bytes: number) => {
    const chars = Math.floor(bytes / 3) * 4 + (bytes % 3 === 0 ? 0 : (bytes % 3) + 1)
    return head + 'A'.repeat(chars - head.length)
  }

  it('rejects more than 50 MB with PageSizeOutOfRange', async () => {
    const err = await problem(ofDecodedSize(51 * MIB))
    expect(err.reason).toBe('PageSizeOutOfRange')
    expect(err.detail).toBe('51 MB is over the 50 MB limit')
    expect((await problem(`data:image/png;base64,${ofDecodedSize(60.5 * MIB)}`)).detail).toBe('60.5 MB is over the 50 MB limit')
  })

  it('rejects one byte over, and accepts exactly 50 MB', async () => {
    expect(await problem(ofDecodedSize(MAX_IMAGE_BYTES + 1))).toMatchObject({
      reason: 'PageSizeOutOfRange',
      detail: `${MAX_IMAGE_BYTES + 1} bytes is over the 50 MB limit`,
    })
    expect(await inspectImage(ofDecodedSize(MAX_IMAGE_BYTES))).toEqual({ kind: 'inline', format: 'png', width: 640, height: 480, bytes: MAX_IMAGE_BYTES })
  })

  it('computes the decoded size from the base64 length and padding', async () => {
    for (const n of [33, 34, 35, 36, 1000, 1001, 1002]) {
      const bytes = Buffer.concat([png(640, 480).subarray(0, 33), Buffer.alloc(n - 33)])
      expect(await inspectImage(bytes.toString('base64'))).toMatchObject({ bytes: n })
      expect(await inspectImage(bytes.toString('base64').replace(/=+$/, ''))).toMatchObject({ bytes: n })
    }
  })
})
