// The plugin's setup file, run in the worker before each test file: a workspace of the shared emulator
// for the file, made before the test file is imported (so clients built at its top level read the env
// set here), reset before each test when asked, deleted and the env restored after the file.
import { afterAll, beforeEach, expect, inject } from 'vitest'
import type { FaultRule, JournalEntry, JournalQuery } from '../admin/types.ts'
import { EmulatorAdmin, Workspace } from '../testing.ts'
import { clientEnv, setTestFileState, SETTINGS_KEY, URL_KEY } from './index.ts'

/** A workspace whose journal starts again at each reset, as its account does. */
class TestFileWorkspace extends Workspace {
  /** Entries up to this id were before the last reset (ids only grow). */
  journalAfter = 0

  override async journal(query: Omit<JournalQuery, 'account'> = {}): Promise<JournalEntry[]> {
    // Newest first, so the entries cut here are the oldest: a limit or offset keeps its meaning.
    return (await super.journal(query)).filter((entry) => entry.id > this.journalAfter)
  }
}

const url = inject(URL_KEY)
const settings = inject(SETTINGS_KEY)
if (!url || !settings) throw new Error('model-gateway-emulator/vitest: the global setup did not run; add gatewayEmulator() to the plugins of vitest.config.ts')

const admin = new EmulatorAdmin(url)
const made = await admin.workspace({ name: (expect.getState().testPath ?? 'vitest test file').slice(-200), credits_usd: settings.credits })
const workspace = new TestFileWorkspace(admin, made.accountId, made.keys)
setTestFileState({ admin, workspace })

const previousEnv = new Map<string, string | undefined>()
if (settings.env) {
  for (const [name, value] of Object.entries(clientEnv(workspace))) {
    previousEnv.set(name, process.env[name])
    process.env[name] = value
  }
}

/** Fault rules are the emulator's, not the account's: an account reset or delete keeps them. */
async function removeFaultRules(): Promise<void> {
  const { data } = await admin.call<{ data: FaultRule[] }>('GET', '/faults')
  await Promise.all(data.filter((rule) => rule.match.account_id === workspace.accountId).map((rule) => admin.removeFault(rule.id)))
}

if (settings.resetBetweenTests) {
  beforeEach(async () => {
    await Promise.all([workspace.reset(), removeFaultRules()])
    const [newest] = await admin.journal({ account: workspace.accountId, limit: 1 })
    if (newest) workspace.journalAfter = newest.id
  })
}

afterAll(async () => {
  for (const [name, value] of previousEnv) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  setTestFileState(undefined)
  await removeFaultRules()
  await workspace.delete()
})
