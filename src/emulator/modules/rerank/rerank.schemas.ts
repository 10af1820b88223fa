// POST /api/v1/rerank. The body schema checks the simple fields; `documents` holds strings and
// {text, image} objects and is checked by hand (rerank.input.ts) so that each problem names its place
// (`documents[3].text`). Fields the official client may send that change nothing here (session_id,
// trace) are accepted and ignored, as the real gateway ignores them.
import { Type, type Static } from 'typebox'
import { ErrorEnvelope, Nullable } from '../../http/schemas.ts'
import { ProviderPreferences } from '../catalog/catalog-routing.service.ts'

/** At most this many documents in one request (Cohere documents 10,000 and advises 1,000 at most). */
export const MAX_DOCUMENTS = 1000

export const RerankBody = Type.Object({
  model: Type.String({ minLength: 1, maxLength: 256, description: 'A model whose output modalities include `rerank`' }),
  query: Type.String({ minLength: 1, description: 'The search query to rerank documents against (at most 2048 tokens)' }),
  documents: Type.Array(
    Type.Unknown({
      description: 'A plain string, or an object with `text` and/or `image` (an http(s) URL or a data:image/ URI, for models that read images)',
    }),
    { minItems: 1, maxItems: MAX_DOCUMENTS, description: 'The documents to rank against the query' },
  ),
  top_n: Type.Optional(Type.Integer({ minimum: 1, description: 'Return only this many of the most relevant documents (all of them by default)' })),
  provider: Type.Optional(Nullable(ProviderPreferences)),
  user: Type.Optional(Type.String({ maxLength: 1024 })),
})
export type RerankBody = Static<typeof RerankBody>

// ---- Answer --------------------------------------------------------------------------------------

export const RerankDocument = Type.Object(
  {
    text: Type.Optional(Type.String()),
    image: Type.Optional(Type.String()),
  },
  { description: 'The document as it was sent: a string document comes back as `{text}`' },
)
export type RerankDocument = Static<typeof RerankDocument>

export const RerankResultItem = Type.Object({
  index: Type.Integer({ description: "The document's position in `documents`" }),
  relevance_score: Type.Number({ description: 'How relevant the document is to the query, in [0, 1]' }),
  document: RerankDocument,
})

export const RerankResult = Type.Object({
  id: Type.String({ description: '`gen-rerank-<unix seconds>-<id>`: also the id GET /api/v1/generation knows it by' }),
  model: Type.String({ description: 'The model that ranked the documents' }),
  provider: Type.String({ description: 'The provider that served the request' }),
  results: Type.Array(RerankResultItem, { description: 'The documents by relevance, most relevant first (equal scores in document order)' }),
  usage: Type.Object({
    search_units: Type.Integer({ description: 'Search units billed: one per query with up to 100 documents (a long document counts once per chunk)' }),
    total_tokens: Type.Integer({ description: 'Tokens read: the query once per document chunk, and the documents' }),
    cost: Type.Number({ description: 'USD charged' }),
  }),
})
export type RerankResult = Static<typeof RerankResult>

export const RerankResponse = { 200: RerankResult, '4xx': ErrorEnvelope }
