// What each operation accepts, per model: durations, resolutions and aspect ratios with their defaults,
// after the vendor's published tables (the spec's `videoq2` is the vendor's `viduq2`, and so on).

export const OPERATIONS = ['multiframe', 'text2video', 'img2video', 'reference2video', 'start-end2video', 'template2video'] as const
export type Operation = (typeof OPERATIONS)[number]

/** The `type` a create response carries, where the operation has one. */
export const TASK_TYPE: Partial<Record<Operation, string>> = {
  text2video: 'text2video',
  img2video: 'img2video',
  reference2video: 'reference2video',
  'start-end2video': 'headtailimg2video',
}

export const RESOLUTIONS = ['360p', '540p', '720p', '1080p'] as const
export const ASPECT_RATIOS = ['16:9', '9:16', '3:4', '4:3', '1:1'] as const
export const STYLES = ['general', 'anime'] as const
export const MOVEMENT_AMPLITUDES = ['auto', 'small', 'medium', 'large'] as const

export interface ModelRule {
  /** Allowed durations in seconds: a range, or a list of values. */
  durations: { min: number; max: number } | number[]
  defaultDuration: number
  /** Resolutions allowed for a duration (most models: the same for all). */
  resolutions(duration: number): readonly string[]
  defaultResolution(duration: number): string
  aspectRatios: readonly string[]
  /** Reference images allowed (reference2video). */
  maxImages?: number
}

const range = (min: number, max: number) => ({ min, max })
const fixed = (list: readonly string[], byDefault: string) => ({ resolutions: () => list, defaultResolution: () => byDefault })
const ALL_RATIOS = ASPECT_RATIOS
const WIDE_RATIOS = ['16:9', '9:16', '1:1'] as const

const q3: ModelRule = { durations: range(1, 16), defaultDuration: 5, ...fixed(['540p', '720p', '1080p'], '720p'), aspectRatios: ALL_RATIOS }
const q2: ModelRule = { durations: range(1, 10), defaultDuration: 5, ...fixed(['540p', '720p', '1080p'], '720p'), aspectRatios: ALL_RATIOS, maxImages: 7 }
const q2ProFast: ModelRule = { durations: range(1, 10), defaultDuration: 5, ...fixed(['720p', '1080p'], '720p'), aspectRatios: ALL_RATIOS }
const q1: ModelRule = { durations: [5], defaultDuration: 5, ...fixed(['1080p'], '1080p'), aspectRatios: WIDE_RATIOS, maxImages: 7 }
// 2.0 and 1.5 offer three resolutions at 4 s and only 720p at 8 s.
const fourOrEight = (fourSeconds: readonly string[], defaultAtFour: string): Pick<ModelRule, 'durations' | 'resolutions' | 'defaultResolution'> => ({
  durations: [4, 8],
  resolutions: (d) => (d === 8 ? ['720p'] : fourSeconds),
  defaultResolution: (d) => (d === 8 ? '720p' : defaultAtFour),
})
const v20: ModelRule = { ...fourOrEight(['360p', '720p', '1080p'], '360p'), defaultDuration: 4, aspectRatios: WIDE_RATIOS, maxImages: 3 }
const v15: ModelRule = { ...fourOrEight(['360p', '720p', '1080p'], '360p'), defaultDuration: 4, aspectRatios: WIDE_RATIOS, maxImages: 3 }

/** The rules of each model, per operation (the model lists of the spec). */
export const MODELS: Record<Exclude<Operation, 'template2video'>, Record<string, ModelRule>> = {
  multiframe: {
    'videoq2-pro': q2,
    'videoq2-turbo': q2,
  },
  text2video: {
    videoq2: q2,
    videoq1: q1,
    'video1.5': v15,
    'videoq3-pro': q3,
    'videoq3-turbo': q3,
  },
  img2video: {
    'videoq3-pro': q3,
    'videoq2-pro-fast': q2ProFast,
    'videoq2-pro': q2,
    'videoq2-turbo': q2,
    videoq1: q1,
    'video2.0': v20,
    'videoq3-turbo': q3,
  },
  reference2video: {
    videoq2: q2,
    videoq1: q1,
    'video2.0': { ...v20, durations: [4], resolutions: () => ['360p', '720p'] },
    'video1.5': v15,
  },
  'start-end2video': {
    // Start/end clips of the q2 family are at most 8 s long.
    'videoq2-pro-fast': { ...q2ProFast, durations: range(1, 8) },
    'videoq2-pro': { ...q2, durations: range(1, 8) },
    'videoq2-turbo': { ...q2, durations: range(1, 8) },
    videoq1: q1,
    'video2.0': v20,
    'videoq3-turbo': q3,
  },
}

export const durationAllowed = (rule: ModelRule, duration: number): boolean =>
  Array.isArray(rule.durations) ? rule.durations.includes(duration) : duration >= rule.durations.min && duration <= rule.durations.max

export const describeDurations = (rule: ModelRule): string =>
  Array.isArray(rule.durations) ? rule.durations.join(' or ') : `${rule.durations.min} to ${rule.durations.max}`

/** Frame size of a resolution at an aspect ratio (the short side is the resolution's height). */
export function frameSize(resolution: string, aspectRatio = '16:9'): { width: number; height: number } {
  const short = Number.parseInt(resolution, 10)
  const [w, h] = aspectRatio.split(':').map(Number) as [number, number]
  const long = Math.round((short * Math.max(w, h)) / Math.min(w, h) / 2) * 2
  return w >= h ? { width: long, height: short } : { width: short, height: long }
}
