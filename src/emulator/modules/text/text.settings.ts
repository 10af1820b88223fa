// The text engine's run-time settings (named `chat` in the API and the state export): how long a text answer is (for every model, and per model) and
// how fast a stream goes. They start from the configuration (--chat-answer-tokens, --chat-speed),
// change over the admin API, travel in the state export, and go back to the configuration on reset.
import type { EmulatorConfig } from '../../config.ts'
import type { StateOwner } from '../../core/lifecycle.ts'
import { checkedSettings } from '../../http/validation.ts'
import { ChatSettingsBody, type ChatSettings } from './text-fixtures.schemas.ts'

export interface ChatSettingsHolder {
  current: ChatSettings
}

const configured = (config: Readonly<EmulatorConfig>): ChatSettings => ({
  answer_tokens: config.chatAnswerTokens,
  model_answer_tokens: {},
  speed: config.chatSpeed,
})

export function createChatSettings(config: Readonly<EmulatorConfig>): ChatSettingsHolder {
  return { current: configured(config) }
}

/** About how many tokens a text answer of `model` has. */
export const answerTokensFor = (settings: ChatSettings, model: string): number => settings.model_answer_tokens[model] ?? settings.answer_tokens

export function chatSettingsState(holder: ChatSettingsHolder, config: Readonly<EmulatorConfig>): StateOwner {
  return {
    name: 'chat',
    tables: [],
    settings: checkedSettings<ChatSettings>('chat', ChatSettingsBody, {
      current: () => holder.current,
      defaults: () => configured(config),
      apply: (settings) => {
        holder.current = settings
      },
    }),
  }
}
