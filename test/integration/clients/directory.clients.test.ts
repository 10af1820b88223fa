// The organization's directory and content through the clients a user points at the emulator:
// @openrouter/sdk (members, SCIM groups and mappings, files, generation content and feedback, with its
// typed errors) and Anthropic's SDK (its Files API, which answers in Anthropic's shape to it).
import Anthropic, { BadRequestError as AnthropicBadRequest, NotFoundError as AnthropicNotFound, toFile } from '@anthropic-ai/sdk'
import { OpenRouter } from '@openrouter/sdk'
import * as errors from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { listeningEmulator } from '../../helpers/emulator.ts'

const client = (url: string, apiKey: string) => new OpenRouter({ apiKey, serverURL: `${url}/api/v1`, retryConfig: { strategy: 'none' } })

/** The SDK's answers are unions of the negotiated shapes: these calls negotiate OpenRouter's. */
function openRouterShaped<T extends { shape: string }>(value: T): Extract<T, { shape: 'openrouter' }> {
  if (value.shape !== 'openrouter') throw new Error(`expected the OpenRouter shape, got ${value.shape}`)
  return value as Extract<T, { shape: 'openrouter' }>
}

async function seededAccount(url: string): Promise<{ id: string; workspace_id: string }> {
  return ((await (await fetch(`${url}/_emulator/api/accounts`)).json()) as { data: Array<{ id: string; workspace_id: string }> }).data[0]!
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('@openrouter/sdk', () => {
  it('lists the members and SCIM groups, and maps a group to a workspace: create, read, update, list, delete', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.management)
    const members = await sdk.organization.listMembers()
    expect(members.result.totalCount).toBeGreaterThan(0)
    expect(members.result.data[0]).toMatchObject({ role: 'org:admin', email: expect.any(String) })

    const groups = await sdk.scim.listGroups({ limit: 2 })
    expect(groups.result.data).toHaveLength(2)
    const group = groups.result.data[0]!
    expect(group).toMatchObject({ id: expect.any(String), displayName: expect.any(String), organizationId: expect.any(String) })

    const workspaceId = (await seededAccount(emu.url)).workspace_id
    const created = await sdk.scim.create({ createScimGroupMappingRequest: { scimGroupId: group.id, workspaceId, role: 'member' } })
    expect(created.data).toMatchObject({ scimGroupId: group.id, workspaceId, role: 'member' })
    const id = created.data.id
    expect((await sdk.scim.read({ id })).data.role).toBe('member')
    expect((await sdk.scim.update({ id, updateScimGroupMappingRequest: { role: 'admin' } })).data.role).toBe('admin')
    expect((await sdk.scim.listMappings()).result.totalCount).toBe(1)

    const twice = await sdk.scim.create({ createScimGroupMappingRequest: { scimGroupId: group.id, workspaceId, role: 'admin' } }).catch((e: unknown) => e)
    expect(twice).toBeInstanceOf(errors.ConflictResponseError)
    expect((await sdk.scim.delete({ id, keepMembers: false })).deleted).toBe(true)
    const gone = await sdk.scim.read({ id }).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(errors.NotFoundResponseError)
    expect((gone as errors.NotFoundResponseError).error.message).toBe(`SCIM group mapping ${id} not found`)
  })

  it('uploads, lists page by page, reads, refuses to download an upload, downloads a server-side file and deletes', async () => {
    const emu = await listeningEmulator()
    const sdk = client(emu.url, emu.keys.standard)
    const uploaded = []
    for (const name of ['a.txt', 'b.csv', 'c.json']) {
      const content = name.endsWith('.csv') ? 'x,y\n1,2\n' : name.endsWith('.json') ? '{"k": 1}' : 'plain words'
      uploaded.push(openRouterShaped(await sdk.files.upload({ requestBody: { file: { fileName: name, content: new TextEncoder().encode(content) } } })))
    }
    expect(uploaded.map((f) => f.mimeType)).toEqual(['text/plain', 'text/csv', 'application/json'])

    // The iterator follows the opaque cursor from page to page.
    const seen: string[] = []
    for await (const page of await sdk.files.list({ limit: 2 })) {
      seen.push(...openRouterShaped(page.result).data.map((f) => f.id))
    }
    expect(seen).toEqual(uploaded.map((f) => f.id))

    const first = uploaded[0]!
    const read = await sdk.files.retrieve({ fileId: first.id })
    expect(read).toMatchObject({ shape: 'openrouter', id: first.id, filename: 'a.txt', downloadable: false })
    const refused = await sdk.files.download({ fileId: first.id }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(errors.BadRequestResponseError)

    const bytes = Buffer.from([0, 1, 2, 250, 251, 252])
    const account = (await seededAccount(emu.url)).id
    const server = await fetch(`${emu.url}/_emulator/api/accounts/${account}/files`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'out.bin', content_base64: bytes.toString('base64') }),
    })
    const serverFile = ((await server.json()) as { data: { id: string } }).data
    expect((await readAll(await sdk.files.download({ fileId: serverFile.id }))).equals(bytes)).toBe(true)

    const deleted = await sdk.files.delete({ fileId: first.id })
    expect(deleted).toMatchObject({ shape: 'openrouter', id: first.id, type: 'file_deleted' })
    const missing = await sdk.files.retrieve({ fileId: first.id }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(errors.NotFoundResponseError)

    const empty = await sdk.files.upload({ requestBody: { file: { fileName: 'empty.txt', content: new Uint8Array() } } }).catch((e: unknown) => e)
    expect(empty).toBeInstanceOf(errors.BadRequestResponseError)
    expect((empty as errors.BadRequestResponseError).error.message).toBe('Field `file` is empty: empty files are rejected')
  })

  it("reads a chat's stored content and takes feedback on it", async () => {
    const emu = await listeningEmulator()
    const standard = client(emu.url, emu.keys.standard)
    const answer = await standard.chat.send({
      chatRequest: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say something about owls' }], stream: false },
    })
    if (answer instanceof ReadableStream) throw new Error('expected JSON, got a stream')
    const stored = await standard.generations.listGenerationContent({ id: answer.id })
    expect(stored.data.input).toEqual({ messages: [{ role: 'user', content: 'Say something about owls' }] })
    expect(stored.data.output.completion).toBe(answer.choices[0]!.message.content)
    expect(stored.data.error).toBeNull()

    const management = client(emu.url, emu.keys.management)
    const recorded = await management.generations.submitFeedback({
      submitGenerationFeedbackRequest: { generationId: answer.id, category: 'incorrect_response', comment: 'Owls are not fish.' },
    })
    expect(recorded.data.success).toBe(true)
    const unknown = await management.generations
      .submitFeedback({ submitGenerationFeedbackRequest: { generationId: 'gen-0-none', category: 'other' } })
      .catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(errors.NotFoundResponseError)
  })
})

describe("Anthropic's SDK (its Files API)", () => {
  it('uploads, lists, reads and deletes in the Anthropic shape; a download of an upload is refused', async () => {
    const emu = await listeningEmulator()
    const anthropic = new Anthropic({ baseURL: `${emu.url}/api`, authToken: emu.keys.standard, apiKey: null, maxRetries: 0 })
    const file = await anthropic.beta.files.upload({ file: await toFile(Buffer.from('# Title\n\nSome notes.'), 'notes.md') })
    expect(file).toMatchObject({ id: expect.stringMatching(/^or_file_/), type: 'file', filename: 'notes.md', mime_type: 'text/markdown', downloadable: false })
    const listed = []
    for await (const f of anthropic.beta.files.list({ limit: 5 })) listed.push(f.id)
    expect(listed).toEqual([file.id])
    expect((await anthropic.beta.files.retrieveMetadata(file.id)).size_bytes).toBe(20)
    const download = await anthropic.beta.files.download(file.id).catch((e: unknown) => e)
    expect(download).toBeInstanceOf(AnthropicBadRequest)
    expect(await anthropic.beta.files.delete(file.id)).toMatchObject({ id: file.id, type: 'file_deleted' })
    expect(await anthropic.beta.files.retrieveMetadata(file.id).catch((e: unknown) => e)).toBeInstanceOf(AnthropicNotFound)
  })
})
