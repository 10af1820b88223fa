// Every model id the pinned source lists for the real gateway, as an app sends it, is served by the
// catalog's three routes (the list, the model, its endpoints) and answered by chat, Responses and
// Messages with a 200 that names the model served: the first call of an app pointed here is not a 400.
import { findProvider } from '@pydantic/genai-prices'
import { describe, expect, it } from 'vitest'
import { authorOfBare } from '../../../scripts/catalog-sources.ts'
import { testEmulator } from '../../helpers/emulator.ts'

/** The source's ids; a bare one (`claude-3.5-sonnet`) stands as its author's in the paths of the catalog's routes. */
const SOURCE_IDS = findProvider({ providerId: 'openrouter' })!.models.map((m) => m.id)

describe('every model id of the source', () => {
  it('is listed, has a model and endpoints, and is answered by chat, Responses and Messages', { timeout: 240_000 }, async () => {
    const emu = await testEmulator()
    const listed = (await emu.get('/api/v1/models')).body.data as Array<{ id: string; links: { details: string } }>
    const byId = new Map(listed.map((m) => [m.id, m]))
    const bySlug = new Map(listed.map((m) => [m.id.slice(m.id.indexOf('/') + 1), m]))
    expect(SOURCE_IDS.length).toBeGreaterThan(700)

    const problems: string[] = []
    let answered = 0
    for (const id of SOURCE_IDS) {
      const entry = byId.get(id) ?? (id.includes('/') ? undefined : (byId.get(`${authorOfBare(id)}/${id}`) ?? bySlug.get(id)))
      if (!entry) {
        problems.push(`${id}: not in GET /api/v1/models`)
        continue
      }
      const endpoints = await emu.get(entry.links.details)
      if (endpoints.status !== 200 || endpoints.body.data.endpoints.length === 0) problems.push(`${id}: ${entry.links.details} ${endpoints.status}`)
      const model = await emu.get(`/api/v1/model/${entry.id}`)
      if (model.status !== 200 || model.body.data.id !== entry.id) problems.push(`${id}: /api/v1/model/${entry.id} ${model.status}`)

      const user = 'Say hello.'
      const answers = [
        [
          'chat',
          await emu.send('POST', '/api/v1/chat/completions', { model: id, messages: [{ role: 'user', content: user }], max_tokens: 8 }, emu.keys.standard),
        ],
        ['responses', await emu.send('POST', '/api/v1/responses', { model: id, input: user, max_output_tokens: 16 }, emu.keys.standard)],
        ['messages', await emu.send('POST', '/api/v1/messages', { model: id, messages: [{ role: 'user', content: user }], max_tokens: 8 }, emu.keys.standard)],
      ] as const
      for (const [surface, answer] of answers) {
        if (answer.status !== 200) problems.push(`${id}: ${surface} ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`)
        // The answer names a model of the catalog: the one asked for, or the one an alias or `~` id stands for.
        else if (!byId.has(answer.body.model)) problems.push(`${id}: ${surface} answered as ${answer.body.model}, not a listed model`)
        else answered++
      }
    }
    expect(problems).toEqual([])
    expect(answered).toBe(3 * SOURCE_IDS.length)
  })
})
