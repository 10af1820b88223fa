// The schemas of the engine's vocabulary that more than one area's bodies use: how much reasoning is
// asked for, how a reasoning summary is written, and how long a conversation in chat's words may be.
import { Type, type Static } from 'typebox'
import { StringEnum } from '../../http/schemas.ts'

/**
 * The real document's ServerToolUseDetails, in chat's and Responses' usage where the request used a server
 * tool: the gateway's tool calls (each run once), and the web searches made (a plugin's or `:online`'s alone).
 */
export const ServerToolUseDetails = Type.Optional(
  Type.Object(
    {
      tool_calls_requested: Type.Optional(Type.Integer()),
      tool_calls_executed: Type.Optional(Type.Integer()),
      web_search_requests: Type.Optional(Type.Integer()),
    },
    { description: 'Usage for server-side tool execution (e.g., web search); absent where no server tool ran' },
  ),
)

/** More than any real conversation, far below what would make counting its tokens slow. */
export const MAX_MESSAGES = 4096

/** The real document's ReasoningEffort (`none` turns reasoning off). */
export const ReasoningEffort = StringEnum(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'] as const)

/** The real document's ReasoningSummaryVerbosity. */
export const SummaryVerbosity = StringEnum(['auto', 'concise', 'detailed'] as const)
export type SummaryVerbosity = Static<typeof SummaryVerbosity>
