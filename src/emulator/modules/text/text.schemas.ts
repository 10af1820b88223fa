// The schemas of the engine's vocabulary that more than one area's bodies use: how much reasoning is
// asked for, how a reasoning summary is written, and how long a conversation in chat's words may be.
import type { Static } from 'typebox'
import { StringEnum } from '../../http/schemas.ts'

/** More than any real conversation, far below what would make counting its tokens slow. */
export const MAX_MESSAGES = 4096

/** The real document's ReasoningEffort (`none` turns reasoning off). */
export const ReasoningEffort = StringEnum(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'] as const)

/** The real document's ReasoningSummaryVerbosity. */
export const SummaryVerbosity = StringEnum(['auto', 'concise', 'detailed'] as const)
export type SummaryVerbosity = Static<typeof SummaryVerbosity>
