// Helpers for users' test suites (`model-gateway-emulator/testing`), with no test framework tied in:
// start an emulator for a test file, or own an isolated account in a shared one; move the clock, add a
// fault, read the journal, reset. Everything goes through the public admin API.
import type {
  ChatFixture,
  ChatFixtureInput,
  ClockState,
  CreateAccountInput,
  CreatedAccount,
  Envelope,
  FaultRuleInput,
  FaultRule as FaultRuleView,
  JournalEntry,
  JournalQuery,
} from './admin/types.ts'
// Types only: the admin client below runs in every test file (the vitest setup's), which need not load the
// whole emulator; startTestEmulator loads it when called.
import type { EmulatorOptions, RunningEmulator } from './emulator.ts'

// The admin API's shapes are declared once (admin/types.ts, also exported by the package's main entry).
export type {
  ChatFixture,
  ChatFixtureInput,
  ClockState,
  CreateAccountInput,
  CreatedAccount,
  FaultRuleInput,
  JournalEntry,
  JournalQuery,
} from './admin/types.ts'
/** A fault rule as `fault()` takes it: the body of POST /_emulator/api/faults (the name this module had first). */
export type FaultRule = FaultRuleInput

/** What the authorization page is asked for, as `authorize()` takes it (the query of the app's /auth link). */
export interface AuthorizeInput {
  /** Where the app receives the code: https, or http on localhost / 127.0.0.1. */
  callbackUrl: string
  /** The PKCE challenge the app made from its verifier (optional, as on the real site). */
  codeChallenge?: string
  /** `S256` (the challenge is the base64url SHA-256 of the verifier) or `plain` (the verifier itself). */
  method?: 'S256' | 'plain'
  /** A spending limit in USD for the key the code gives. */
  limit?: number
  /** The account that authorizes: the default (first) account when not given. */
  accountId?: string
}

/** The admin API of a running emulator, by its base URL. */
export class EmulatorAdmin {
  readonly url: string
  readonly #token: string | null

  /** `token`: the admin token, for an emulator that listens beyond loopback (`--admin-token`). */
  constructor(url: string, options: { token?: string | null } = {}) {
    this.url = url.replace(/\/$/, '')
    this.#token = options.token ?? null
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      ...(this.#token !== null && { authorization: `Bearer ${this.#token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    }
    const res = await fetch(`${this.url}/_emulator/api${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path} failed with ${res.status}: ${text}`)
    return (text ? JSON.parse(text) : undefined) as T
  }

  /** Moves virtual time forward (a duration such as '1d', or milliseconds); due work runs first. */
  async advance(by: string | number): Promise<ClockState> {
    const body = typeof by === 'number' ? { ms: by } : { by }
    return (await this.call<Envelope<ClockState>>('POST', '/clock/advance', body)).data
  }

  /**
   * Waits until every callback that is due has been attempted (they are sent in the background, so an
   * advance returns before its callbacks arrive). Throws if they have not within `timeoutMs`.
   */
  async drainCallbacks(timeoutMs = 10_000): Promise<void> {
    const { data } = await this.call<{ data: { drained: boolean; in_flight: number; queued: number; due: number } }>('POST', '/callbacks/drain', {
      timeout_ms: timeoutMs,
    })
    if (!data.drained) throw new Error(`callbacks still under way after ${timeoutMs} ms: ${data.in_flight} in flight, ${data.queued} queued, ${data.due} due`)
  }

  /** Adds a fault rule; returns its id. */
  async fault(rule: FaultRuleInput): Promise<string> {
    return (await this.call<Envelope<FaultRuleView>>('POST', '/faults', rule)).data.id
  }

  async removeFault(id: string): Promise<void> {
    await this.call('DELETE', `/faults/${id}`)
  }

  /** Journal entries, newest first; `key` takes a key or its hash, `account` an account's id. */
  async journal(query: JournalQuery = {}): Promise<JournalEntry[]> {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))
    return (await this.call<Envelope<JournalEntry[]>>('GET', `/journal?${search}`)).data
  }

  /**
   * Completes the OAuth authorization page as a person clicking Authorize would, without a browser:
   * returns the code the app's callback would get, to exchange at POST /api/v1/auth/keys.
   */
  async authorize(input: AuthorizeInput): Promise<string> {
    const { data } = await this.call<Envelope<{ code: string }>>('POST', '/oauth/authorize', {
      callback_url: input.callbackUrl,
      ...(input.codeChallenge !== undefined && { code_challenge: input.codeChallenge }),
      ...(input.method !== undefined && { code_challenge_method: input.method }),
      ...(input.limit !== undefined && { limit: input.limit }),
      ...(input.accountId !== undefined && { account_id: input.accountId }),
    })
    return data.code
  }

  /** Everything back to the seed. */
  async reset(): Promise<void> {
    await this.call('POST', '/reset')
  }

  /** An isolated account of this emulator: its own keys, members and credits. */
  async workspace(options: CreateAccountInput = {}): Promise<Workspace> {
    const { data } = await this.call<Envelope<CreatedAccount>>('POST', '/accounts', options)
    return new Workspace(this, data.id, { management: data.management_key, standard: data.standard_key })
  }
}

/** One account in a shared emulator, so parallel test files do not see each other. */
export class Workspace {
  readonly admin: EmulatorAdmin
  readonly accountId: string
  readonly keys: { management: string; standard: string }

  constructor(admin: EmulatorAdmin, accountId: string, keys: { management: string; standard: string }) {
    this.admin = admin
    this.accountId = accountId
    this.keys = keys
  }

  /** The gateway base URL to give a client (`baseURL` for openai, `serverURL` for @openrouter/sdk). */
  get apiUrl(): string {
    return `${this.admin.url}/api/v1`
  }

  /** Back to how the account was created (usage, guardrails, charges, tasks gone). */
  async reset(): Promise<void> {
    await this.admin.call('POST', `/accounts/${this.accountId}/reset`)
  }

  async delete(): Promise<void> {
    await this.admin.call('DELETE', `/accounts/${this.accountId}`)
  }

  /** A fault that touches this account only. */
  async fault(rule: FaultRuleInput): Promise<string> {
    return this.admin.fault({ ...rule, match: { ...rule.match, account_id: this.accountId } })
  }

  /**
   * A chat fixture of this account: chat and text completions that match `rule.match` get
   * `rule.answer` (text, tool calls or an error) instead of a generated answer. Returns the rule.
   */
  async chatFixture(rule: ChatFixtureInput): Promise<ChatFixture> {
    return (await this.admin.call<Envelope<ChatFixture>>('POST', `/accounts/${this.accountId}/chat-fixtures`, rule)).data
  }

  /** Completes the OAuth authorization page for this account (see EmulatorAdmin.authorize): the code. */
  async authorize(input: Omit<AuthorizeInput, 'accountId'>): Promise<string> {
    return this.admin.authorize({ ...input, accountId: this.accountId })
  }

  /** This account's journal entries only, newest first (the other workspaces' requests are not there). */
  async journal(query: Omit<JournalQuery, 'account'> = {}): Promise<JournalEntry[]> {
    return this.admin.journal({ ...query, account: this.accountId })
  }

  /** Removes every chat fixture of this account. */
  async clearChatFixtures(): Promise<void> {
    await this.admin.call('DELETE', `/accounts/${this.accountId}/chat-fixtures`)
  }
}

export interface TestEmulator extends RunningEmulator {
  admin: EmulatorAdmin
  /** The gateway base URL to give a client. */
  apiUrl: string
}

/** An emulator for one test file: in memory, on any free port, with a manual clock unless told otherwise. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const { startEmulator } = await import('./emulator.ts')
  const emulator = await startEmulator({ db: ':memory:', port: 0, euPort: -1, clock: 'manual', logLevel: 'silent', ...options })
  return Object.assign(emulator, { admin: new EmulatorAdmin(emulator.url, { token: emulator.config.adminToken }), apiUrl: `${emulator.url}/api/v1` })
}
