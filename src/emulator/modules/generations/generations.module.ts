// Generations: the row of every billed call (recorded by the meter as it bills; GET /generation reads
// it), the prompt and answer of each text generation (kept by the text engine as it records the
// generation), and the feedback given on a generation.
import { checkBounds, textBytes } from '../../core/lifecycle.ts'
import type { Limit } from '../../core/limits.ts'
import { defineModule } from '../module.ts'
import { generationsAdminRoutes } from './generations.admin.ts'
import { createGenerationsContentRepo, createGenerationsRepo, generationsContentState, generationsState } from './generations.repo.ts'
import { generationsRoutes } from './generations.routes.ts'
import { ContentInput, MAX_ACCOUNT_CONTENT_BYTES, MAX_ACCOUNT_CONTENTS, MAX_TOTAL_CONTENT_BYTES, MAX_TOTAL_CONTENTS } from './generations.schemas.ts'
import { createGenerationsService, MAX_INPUT_CHARS, MAX_OUTPUT_CHARS, type GenerationsService } from './generations.service.ts'

declare module '../module.ts' {
  interface Services {
    generations: GenerationsService
  }
}

/** What this area bounds (docs/limits.md). */
const LIMITS: readonly Limit[] = [
  {
    what: 'Text generations whose content (prompt and answer) one account keeps, the newest',
    value: MAX_ACCOUNT_CONTENTS,
    unit: 'items',
    beyond: 'older content is dropped (the generation and its usage stay); reading it is a 404 saying so',
  },
  { what: 'Bytes of content one account keeps, the newest', value: MAX_ACCOUNT_CONTENT_BYTES, unit: 'bytes', beyond: 'older content is dropped, as above' },
  { what: 'Text generations whose content is kept in all', value: MAX_TOTAL_CONTENTS, unit: 'items', beyond: 'older content is dropped, as above' },
  { what: 'Bytes of content kept in all', value: MAX_TOTAL_CONTENT_BYTES, unit: 'bytes', beyond: 'older content is dropped, as above' },
  { what: "Characters of one generation's input kept", value: MAX_INPUT_CHARS, unit: 'characters', beyond: 'the rest is cut, saying how much' },
  { what: "Characters of one generation's answer kept", value: MAX_OUTPUT_CHARS, unit: 'characters', beyond: 'the rest is cut, saying how much' },
]

export const generationsModule = defineModule({
  name: 'generations',
  limits: LIMITS,
  needs: ['accounts', 'usage'],
  create: (ctx) =>
    createGenerationsService(
      createGenerationsContentRepo(ctx.db),
      createGenerationsRepo(ctx.db, ctx.ids, () => ctx.services.usage),
    ),
  state: (ctx) => {
    const owner = generationsContentState(ctx.db)
    const bytes = (row: Readonly<Record<string, unknown>>) => textBytes(row['input']) + textBytes(row['completion']) + textBytes(row['reasoning'])
    const account = (row: Readonly<Record<string, unknown>>) => row['account_id']
    return [
      generationsState(ctx.db),
      {
        ...owner,
        // The counts of what is kept follow the table, whatever changed it.
        afterStateChange: () => ctx.services.generations.recount(),
        resetAccount: (id) => {
          owner.resetAccount!(id)
          ctx.services.generations.recount(id)
        },
        imports: {
          generation_contents: {
            json: { input: ContentInput },
            checkAll: (rows) =>
              checkBounds('generation_contents', rows, [
                {
                  most: MAX_ACCOUNT_CONTENTS,
                  groupOf: account,
                  column: 'account_id',
                  issue: `is past the ${MAX_ACCOUNT_CONTENTS} generations' content one account keeps`,
                },
                {
                  most: MAX_ACCOUNT_CONTENT_BYTES,
                  groupOf: account,
                  weightOf: bytes,
                  column: null,
                  issue: `is past the ${MAX_ACCOUNT_CONTENT_BYTES} bytes of generation content one account keeps`,
                },
                { most: MAX_TOTAL_CONTENTS, column: null, issue: `is past the ${MAX_TOTAL_CONTENTS} generations' content the emulator keeps in all` },
                {
                  most: MAX_TOTAL_CONTENT_BYTES,
                  weightOf: bytes,
                  column: null,
                  issue: `is past the ${MAX_TOTAL_CONTENT_BYTES} bytes of generation content the emulator keeps in all`,
                },
              ]),
          },
        },
      },
    ]
  },
  gateway: generationsRoutes,
  admin: generationsAdminRoutes,
})
