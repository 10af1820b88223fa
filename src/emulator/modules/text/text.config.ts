// The text engine's part of the configuration: how long a text answer is and how fast a stream goes
// (where its run-time settings start from: text.settings.ts).
import { integer, nonNegativeNumber, setting } from '../../core/settings.ts'

export const TEXT_CONFIG = [
  setting({
    key: 'chatAnswerTokens',
    flag: 'chat-answer-tokens',
    arg: '<n>',
    default: 60,
    help: 'about how many tokens a chat answer in text has (whole sentences), before `max_tokens` cuts it',
    parse: integer(1, 100_000),
  }),
  setting({
    key: 'chatSpeed',
    flag: 'chat-speed',
    arg: '<factor>',
    default: 0,
    help: 'streamed chat timing as a multiple of the serving endpoint’s latency and throughput (`1` = as fast as the real one), in virtual time while the clock is frozen; `0` sends at once',
    parse: nonNegativeNumber,
  }),
] as const
