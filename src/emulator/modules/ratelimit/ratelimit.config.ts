// The rate limits' part of the configuration: requests per minute and per day, per key and per account.
import { limitOrOff, setting } from '../../core/settings.ts'

export const RATELIMIT_CONFIG = [
  setting({
    key: 'rateLimitKeyPerMinute',
    flag: 'rate-limit-key-per-minute',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per minute one key may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'rateLimitKeyPerDay',
    flag: 'rate-limit-key-per-day',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per day one key may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'rateLimitAccountPerMinute',
    flag: 'rate-limit-account-per-minute',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per minute one account may make to embeddings and video',
    parse: limitOrOff,
  }),
  setting({
    key: 'rateLimitAccountPerDay',
    flag: 'rate-limit-account-per-day',
    arg: '<n>|off',
    default: null as number | null,
    help: 'requests per day one account may make to embeddings and video',
    parse: limitOrOff,
  }),
] as const
