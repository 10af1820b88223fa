// The explicit list (no directory scan) keeps migrations bundler-safe for the desktop build.
import m0001 from './0001-accounts-keys-usage.ts'
import m0002 from './0002-catalog-and-account-preferences.ts'
import m0003 from './0003-guardrails-charges-ledger.ts'
import m0004 from './0004-video-tasks-callbacks.ts'
import m0005 from './0005-fault-rules.ts'
import m0006 from './0006-clock-position.ts'
import m0007 from './0007-generations.ts'
import m0008 from './0008-chat-fixtures.ts'
import m0009 from './0009-generation-api-types.ts'
import m0010 from './0010-workspaces.ts'
import m0011 from './0011-key-provisioning-oauth.ts'
import m0012 from './0012-byok-observability.ts'
import m0013 from './0013-presets.ts'
import m0014 from './0014-directory-files-generation-content.ts'
import m0015 from './0015-file-parts.ts'
import m0016 from './0016-prompt-cache.ts'
import m0017 from './0017-generations-without-account-index.ts'
import type { Migration } from '../migrate.ts'

export const migrations: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
]
