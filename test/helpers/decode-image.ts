// Opens an image file of any format the emulator makes, with a real decoder for each: pngjs, jpeg-js
// and libwebp (webp-decoder.ts). Throws when the bytes are not a file of the named type.
import jpegJs from 'jpeg-js'
import pngjs from 'pngjs'
import { decodeWebp } from './webp-decoder.ts'

export interface DecodedImage {
  width: number
  height: number
  /** RGBA, 4 bytes a pixel. */
  data: Buffer
}

export function decodeImage(file: Buffer, mediaType: string): DecodedImage {
  if (mediaType === 'image/png') {
    if (!file.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG')
    const png = pngjs.PNG.sync.read(file)
    return { width: png.width, height: png.height, data: png.data }
  }
  if (mediaType === 'image/jpeg') {
    if (file[0] !== 0xff || file[1] !== 0xd8) throw new Error('not a JPEG')
    const jpeg = jpegJs.decode(file, { useTArray: true, formatAsRGBA: true })
    return { width: jpeg.width, height: jpeg.height, data: Buffer.from(jpeg.data) }
  }
  if (mediaType === 'image/webp') return decodeWebp(file)
  throw new Error(`no decoder for ${mediaType}`)
}

/** A data URL's media type and decoded image. */
export function decodeDataUrl(url: string): DecodedImage & { mediaType: string } {
  const match = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(url)
  if (!match) throw new Error(`not a base64 image data URL: ${url.slice(0, 40)}`)
  return { mediaType: match[1]!, ...decodeImage(Buffer.from(match[2]!, 'base64'), match[1]!) }
}
