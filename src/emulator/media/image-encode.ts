// A picture as the file a client asked for: PNG (pngjs), JPEG (jpeg-js) or lossless WebP (webp.ts).
import jpegJs from 'jpeg-js'
import pngjs from 'pngjs'
import { toRgba, type Picture } from './picture.ts'
import { encodeWebp } from './webp.ts'

export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const
export type ImageFormat = (typeof IMAGE_FORMATS)[number]

export const MEDIA_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const satisfies Record<ImageFormat, string>

/** JPEG quality when the request sets no `output_compression`. */
export const DEFAULT_JPEG_QUALITY = 90

/** The picture's file; `quality` (1-100) is the JPEG's, which PNG and lossless WebP do not have. */
export function encodePicture(picture: Picture, format: ImageFormat, quality = DEFAULT_JPEG_QUALITY): Buffer {
  if (format === 'webp') return encodeWebp(picture)
  const data = toRgba(picture)
  const { width, height } = picture
  if (format === 'jpeg') return jpegJs.encode({ data, width, height }, Math.min(100, Math.max(1, quality))).data
  // RGBA as it is (pngjs converts to RGB in JavaScript, three times slower); the "sub" filter suits rows
  // of flat runs and steps, and is cheaper than trying every filter on every row.
  return pngjs.PNG.sync.write({ width, height, data } as pngjs.PNG, { colorType: 6, inputColorType: 6, filterType: 1 })
}
