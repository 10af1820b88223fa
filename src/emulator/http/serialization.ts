// Response serializers compiled on a route's first answer, not at start-up: about a hundred routes
// each compile fast-json-stringify code for every status they declare, which would otherwise cost
// tens of milliseconds before the first request, for routes a test run may never call.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifySerializerCompiler } from 'fastify/types/schema.js'

export function lazySerializerCompiler(): FastifySerializerCompiler<unknown> {
  // Fastify's own compiler; the schemas are inline, so there are no shared ones to give it.
  const compile = SerializerSelector()({}, {})
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data) => (serialize ??= compile(route as never) as (data: unknown) => string)(data)
  }
}
