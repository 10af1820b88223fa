// The Data view's management sections in a real browser: a client creates a workspace (with a budget),
// a BYOK credential, a preset and an observability destination through the gateway, and the four
// sections show them from the event stream alone, with no secret on the page: the credential is its
// masked label, the destination the host it sends to.
import { afterAll, describe, expect, it } from 'vitest'
import { closeBrowser, hasChromium, openUi } from './harness.ts'

const BYOK_SECRET = 'sk-proj-e2eSECRETvalue0123456789wxyz'
const WEBHOOK_TOKEN = 'hookTOKEN4242'

describe.skipIf(!hasChromium)('management sections of the Data view', () => {
  afterAll(closeBrowser)

  it('shows workspaces, BYOK credentials, presets and destinations made through the gateway, never a secret', async () => {
    const { emu, page, screenshot } = await openUi('data')
    page.setDefaultTimeout(10_000)
    const workspaces = page.getByRole('region', { name: /^Workspaces of / })
    const byok = page.getByRole('region', { name: /^BYOK credentials of / })
    const presets = page.getByRole('region', { name: /^Presets of / })
    const destinations = page.getByRole('region', { name: /^Observability destinations of / })
    // Every account has its default workspace; the other three start empty, each saying how to make one.
    await workspaces.getByRole('row').filter({ hasText: 'Default Workspace' }).locator('.badge', { hasText: 'default' }).waitFor()
    await byok.getByText('No BYOK credentials').waitFor()
    await byok.getByText('POST /api/v1/byok').waitFor()
    await presets.getByText('No presets').waitFor()
    await destinations.getByText('No observability destinations').waitFor()
    await page.getByText('live', { exact: true }).waitFor()

    const auth = { authorization: `Bearer ${emu.keys.management}`, 'content-type': 'application/json' }
    const send = async (path: string, body: unknown, method = 'POST') => {
      const res = await fetch(`${emu.url}/api/v1${path}`, { method, headers: auth, body: JSON.stringify(body) })
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300)
      return ((await res.json()) as { data: Record<string, unknown> }).data
    }
    const team = await send('/workspaces', { name: 'Research team', slug: 'research' })
    await send('/workspaces/research/budgets/weekly', { limit_usd: 5 }, 'PUT')
    const credential = await send('/byok', { provider: 'openai', key: BYOK_SECRET, name: 'Team OpenAI', workspace_id: team['id'] })
    await send('/presets/support-bot/chat/completions', { model: 'openai/gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }] })
    await send('/observability/destinations', {
      type: 'webhook',
      name: 'Trace sink',
      config: { url: `https://traces.example.com/hooks/${WEBHOOK_TOKEN}?token=${WEBHOOK_TOKEN}`, method: 'POST' },
    })

    const teamRow = workspaces.getByRole('row').filter({ hasText: 'Research team' })
    await teamRow.getByText('$5.00 weekly').waitFor()
    await teamRow.getByText('research', { exact: true }).waitFor()
    const credentialRow = byok.getByRole('row').filter({ hasText: 'Team OpenAI' })
    await credentialRow.getByText(credential['label'] as string, { exact: true }).waitFor()
    await credentialRow.getByText('Research team').waitFor()
    const presetRow = presets.getByRole('row').filter({ hasText: '@preset/support-bot' })
    await presetRow.getByText('v1', { exact: true }).waitFor()
    const destinationRow = destinations.getByRole('row').filter({ hasText: 'Trace sink' })
    await destinationRow.getByText('traces.example.com', { exact: true }).waitFor()
    await destinationRow.getByText('webhook', { exact: true }).waitFor()
    await destinationRow.getByText('enabled', { exact: true }).waitFor()

    // No secret anywhere on the page: neither the provider key nor the webhook's token.
    const text = await page.locator('body').innerText()
    expect(text).not.toContain(BYOK_SECRET)
    expect(text).not.toContain(BYOK_SECRET.slice(8, 24))
    expect(text).not.toContain(WEBHOOK_TOKEN)
    await screenshot('data-management')
  })
})
