// The video router's part of the configuration: how many key frames a multiframe task needs, and how
// its tasks go (their states' durations, failures, credits).
import { integer, oneOf, positiveNumber, duration, fraction, nonEmptyString, setting } from '../../core/settings.ts'

/** What a multiframe task needs: one of the switches between the spec and the vendor's docs. */
export const MULTIFRAME_CONFIG = [
  setting({
    key: 'multiframeMinKeyFrames',
    flag: 'multiframe-min-key-frames',
    arg: '<n>',
    default: 0,
    help: "key frames a multiframe task needs at least: `0` (`image_settings` optional, the spec) to `2` (the vendor's docs)",
    parse: integer(0, 2),
  }),
] as const

/** How tasks go: the durations of their states, how often they fail, what a credit is worth. */
export const VIDEO_TASKS_CONFIG = [
  setting({
    key: 'videoCreatedMs',
    flag: 'video-created',
    arg: '<dur>',
    default: 1_000,
    help: 'how long a video task stays `created` (virtual time; `0` skips the state)',
    parse: duration,
  }),
  setting({
    key: 'videoQueueingMs',
    flag: 'video-queueing',
    arg: '<dur>',
    default: 5_000,
    help: 'how long a video task stays `queueing` (virtual time; `0` skips the state)',
    parse: duration,
  }),
  setting({
    key: 'videoProcessingMs',
    flag: 'video-processing',
    arg: '<dur>',
    default: 20_000,
    help: 'how long a video task stays `processing` (virtual time; `0` skips the state)',
    parse: duration,
  }),
  setting({ key: 'videoFailureRate', flag: 'video-failure-rate', arg: '<0-1>', default: 0, help: 'share of video tasks that fail (seeded)', parse: fraction }),
  setting({
    key: 'videoFailCode',
    flag: 'video-fail-code',
    arg: '<code>',
    default: 'ModelUnavailable',
    help: 'the `err_code` they fail with',
    parse: nonEmptyString,
  }),
  setting({
    key: 'videoCreditUsd',
    flag: 'video-credit-usd',
    arg: '<usd>',
    default: 0.005,
    help: 'USD value of one video credit (the spec: 1 credit = 0.005 PTC)',
    parse: positiveNumber,
  }),
  setting({
    key: 'videoCreditStatus',
    flag: 'video-credit-status',
    arg: '400|402',
    default: 400,
    help: "HTTP status of the router's `CreditInsufficient` error",
    details: 'the vendor documents `400`; `402` was seen',
    parse: oneOf([400, 402] as const),
  }),
] as const

export const VIDEO_CONFIG = [...MULTIFRAME_CONFIG, ...VIDEO_TASKS_CONFIG] as const
