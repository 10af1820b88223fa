// Admin side of the catalog (under /_emulator/api): read it, replace it, add or remove models, and
// put the fixtures' catalog back. A rejected change leaves the running catalog as it was.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { EmulatorContext } from '../module.ts'
import { invalidCatalog, modelNotFound } from './catalog.errors.ts'
import { CatalogError, mergeCatalog, validateCatalog, type Catalog } from './catalog-index.service.ts'
import { CatalogDocument, CatalogExtension, CatalogSummary, ModelPathParams } from './catalog.schemas.ts'
import { data, OpenObject } from '../../http/schemas.ts'

/** A whole catalog can be large; these routes take up to 32 MB. */
const CATALOG_BODY_LIMIT = 32 * 1024 * 1024

const summary = (catalog: Catalog) => ({ data: { models: catalog.models.length, endpoints: catalog.models.reduce((n, m) => n + m.endpoints.length, 0) } })

export const catalogAdminRoutes: FastifyPluginAsyncTypebox<{ ctx: EmulatorContext }> = async (app, { ctx }) => {
  /** Validates the whole result before anything changes; a problem is a 400 naming the field. */
  const replace = (document: unknown) => {
    let valid
    try {
      valid = validateCatalog(document, 'catalog')
    } catch (error) {
      if (error instanceof CatalogError) throw invalidCatalog(error.message, error.field)
      throw error
    }
    return summary(ctx.services.catalog.replace(valid, ctx.clock.now()))
  }

  app.get(
    '/catalog',
    {
      config: { operation: 'admin.catalog.get' },
      schema: { response: data(OpenObject('The catalog document: {"version":1,"models":[...]}, as PUT takes it')) },
    },
    async () => ({ data: ctx.services.catalog.get().document }),
  )

  app.put(
    '/catalog',
    { config: { operation: 'admin.catalog.replace' }, bodyLimit: CATALOG_BODY_LIMIT, schema: { response: data(CatalogSummary), body: CatalogDocument } },
    async (request) => replace(request.body),
  )

  app.post(
    '/catalog/models',
    { config: { operation: 'admin.catalog.extend' }, bodyLimit: CATALOG_BODY_LIMIT, schema: { response: data(CatalogSummary), body: CatalogExtension } },
    async (request) => replace(mergeCatalog(ctx.services.catalog.get().document, request.body.models)),
  )

  app.delete(
    '/catalog/models/:author/:slug',
    { config: { operation: 'admin.catalog.remove' }, schema: { response: data(CatalogSummary), params: ModelPathParams } },
    async (request) => {
      const id = `${request.params.author}/${request.params.slug}`
      const current = ctx.services.catalog.get().document
      if (!current.models.some((m) => m.id === id)) throw modelNotFound(id)
      // Its aliases go with it; the others, and where the document came from, stay.
      const aliases = current.aliases && Object.fromEntries(Object.entries(current.aliases).filter(([, target]) => target !== id))
      return replace({
        version: 1,
        ...(current.sources && { sources: current.sources }),
        ...(aliases && { aliases }),
        models: current.models.filter((m) => m.id !== id),
      })
    },
  )

  app.post(
    '/catalog/restore',
    { config: { operation: 'admin.catalog.restore' }, schema: { response: data(CatalogSummary), body: Type.Optional(Type.Unknown()) } },
    async () => summary(ctx.services.catalog.restore()),
  )
}
