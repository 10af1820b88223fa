// The journal's part of the configuration: how many requests it keeps, and how much of their bodies and media.
import { integer, setting } from '../core/settings.ts'

export const JOURNAL_CONFIG = [
  setting({
    key: 'journalSize',
    flag: 'journal-size',
    arg: '<n>',
    default: 1000,
    help: 'requests the journal keeps (the oldest go first); `0` turns it off',
    parse: integer(0, 1_000_000),
  }),
  setting({
    key: 'journalBodyLimit',
    flag: 'journal-body-limit',
    arg: '<bytes>',
    default: 16_384,
    help: 'bytes of each body the journal keeps (the rest is counted, not kept)',
    parse: integer(0, 100_000_000),
  }),
  setting({
    key: 'journalMediaLimit',
    flag: 'journal-media-limit',
    arg: '<bytes>',
    default: 64 * 1024 * 1024,
    shownDefault: '67108864 (64 MiB)',
    help: 'bytes of images, audio and video the journal keeps whole for the inspector, over all entries (the oldest go first)',
    parse: integer(0, 4_000_000_000),
  }),
] as const
