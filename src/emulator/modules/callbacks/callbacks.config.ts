// The callbacks' part of the configuration: how deliveries are retried, timed out and spread over receivers.
import { integer, duration, durations, setting } from '../../core/settings.ts'

export const CALLBACKS_CONFIG = [
  setting({
    key: 'callbackRetryDelaysMs',
    flag: 'callback-retry-delays',
    arg: '<dur,...>',
    default: [10_000, 60_000, 300_000],
    help: 'virtual delays before each retry of a failed callback delivery',
    parse: durations,
  }),
  setting({
    key: 'callbackTimeoutMs',
    flag: 'callback-timeout',
    arg: '<dur>',
    default: 10_000,
    help: 'how long a callback receiver has to answer (real time)',
    parse: duration,
  }),
  setting({
    key: 'callbackConcurrency',
    flag: 'callback-concurrency',
    arg: '<n>',
    default: 4,
    help: 'callback attempts under way at once to one receiver (scheme, host and port)',
    parse: integer(1, 1_000),
  }),
] as const
