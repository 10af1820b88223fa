// How a request's size is settled for a model: tiers and ratios clamped to the model's own, fixed-size
// models snapping to their nearest size, explicit pixels authoritative (and checked against what is
// asked beside them), each refusal a 400 naming its field.
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/emulator/core/errors.ts'
import { aspectRatioOf, settleSize, tierOf, type ImageModelFacts, type SizeAsk } from '../../../src/emulator/modules/images/images.models.ts'

const FIELDS = { size: 'size', resolution: 'resolution', aspectRatio: 'aspect_ratio' }
const common = {
  max_n: 1,
  qualities: [],
  background: false,
  output_formats: ['png'],
  output_compression: false,
  seed: true,
  max_input_references: 0,
} satisfies Partial<ImageModelFacts>
const FREE: ImageModelFacts = { ...common, resolutions: ['2K', '4K'], aspect_ratios: ['1:1', '16:9', '9:16', '21:9'], max_pixels: 4096 * 4096 }
const FIXED: ImageModelFacts = { ...common, sizes: ['1024x1024', '1536x1024', '1024x1536'] }

const settle = (facts: ImageModelFacts, ask: Omit<SizeAsk, 'fields'>) => settleSize('test/model', facts, { ...ask, fields: FIELDS })

function refusal(run: () => unknown): { field: unknown; message: string } {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(400)
    return { field: (error as ApiError).metadata?.field, message: (error as ApiError).message }
  }
  throw new Error('expected a 400')
}

describe('sizes of a free-size model', () => {
  it('defaults to its first tier, square', () => {
    expect(settle(FREE, {})).toEqual({ width: 2048, height: 2048 })
    expect(settle(FREE, { size: 'auto', aspectRatio: 'auto' })).toEqual({ width: 2048, height: 2048 })
  })

  it('makes a tier at a ratio: about the tier’s area, sides in steps of 16, never more', () => {
    expect(settle(FREE, { resolution: '4K', aspectRatio: '16:9' })).toEqual({ width: 5456, height: 3072 })
    expect(settle(FREE, { size: '2K', aspectRatio: '9:16' })).toEqual({ width: 1536, height: 2720 })
    const { width, height } = settle(FREE, { resolution: '4K', aspectRatio: '21:9' })
    expect((width % 16) + (height % 16)).toBe(0)
    expect(width * height).toBeLessThanOrEqual(4096 * 4096)
  })

  it('clamps a tier or ratio it lacks to the nearest it has', () => {
    expect(settle(FREE, { resolution: '512' })).toEqual({ width: 2048, height: 2048 })
    // 2:1 is nearer 16:9 than 21:9.
    expect(settle(FREE, { resolution: '2K', aspectRatio: '2:1' })).toEqual(settle(FREE, { resolution: '2K', aspectRatio: '16:9' }))
  })

  it('makes explicit pixels exactly', () => {
    expect(settle(FREE, { size: '1000x600' })).toEqual({ width: 1000, height: 600 })
    expect(settle(FREE, { size: '2048x1152', resolution: '2K', aspectRatio: '16:9' })).toEqual({ width: 2048, height: 1152 })
  })

  it('refuses a size it cannot read, sides out of bounds, and more pixels than the model makes', () => {
    expect(refusal(() => settle(FREE, { size: 'big' }))).toEqual({
      field: 'size',
      message: 'Field `size` must be a tier (512, 1K, 2K, 4K), WIDTHxHEIGHT in pixels (e.g. 1024x1024), or auto',
    })
    expect(refusal(() => settle(FREE, { size: '8x8' }))).toEqual({ field: 'size', message: 'Field `size` must have sides from 16 to 16384 pixels (got 8x8)' })
    expect(refusal(() => settle(FREE, { size: '20000x16' })).field).toBe('size')
    expect(refusal(() => settle(FREE, { size: '5000x5000' }))).toEqual({
      field: 'size',
      message: 'Field `size` is 25000000 pixels, more than the 16777216 test/model makes',
    })
  })

  it('refuses a resolution or ratio that disagrees with the size', () => {
    expect(refusal(() => settle(FREE, { size: '2K', resolution: '4K' }))).toEqual({
      field: 'resolution',
      message: 'Field `resolution` is 4K, but size is 2K: leave one out or make them agree',
    })
    expect(refusal(() => settle(FREE, { size: '1024x1024', resolution: '4K' }))).toEqual({
      field: 'resolution',
      message: 'Field `resolution` is 4K, but size 1024x1024 is a 1K image: an explicit size decides alone',
    })
    expect(refusal(() => settle(FREE, { size: '1024x1024', aspectRatio: '16:9' }))).toEqual({
      field: 'aspect_ratio',
      message: 'Field `aspect_ratio` is 16:9, but size 1024x1024 is not: an explicit size decides alone',
    })
  })
})

describe('sizes of a fixed-size model', () => {
  it('makes its first size by default, and the listed size nearest what is asked', () => {
    expect(settle(FIXED, {})).toEqual({ width: 1024, height: 1024 })
    expect(settle(FIXED, { aspectRatio: '16:9' })).toEqual({ width: 1536, height: 1024 })
    expect(settle(FIXED, { aspectRatio: '9:16', resolution: '4K' })).toEqual({ width: 1024, height: 1536 })
    expect(settle(FIXED, { size: '512x512' })).toEqual({ width: 1024, height: 1024 })
    expect(settle(FIXED, { size: '1536x1024' })).toEqual({ width: 1536, height: 1024 })
  })
})

describe('tiers and ratios of dimensions', () => {
  it('names the nearest', () => {
    expect(tierOf(1024, 1024)).toBe('1K')
    expect(tierOf(2560, 1440)).toBe('2K')
    expect(aspectRatioOf(1792, 1024)).toBe('16:9')
    expect(aspectRatioOf(1024, 1536)).toBe('2:3')
  })
})
