// What two plugins do to a text request (text-plugins.input.ts reads them): `context-compression` drops
// messages from the middle of a prompt too long for the model (middle-out: the first system messages and
// the last turns stay, as the real plugin keeps them), and `response-healing` repairs a JSON answer that
// does not parse (a chat fixture's, since written answers always parse): fences and text around the
// value removed, trailing commas dropped, an open string and open brackets closed.

/**
 * The messages left once the middle ones are dropped, one at a time from the middle outwards, until
 * `tokens` of what is left is at most `limit`; leading system and developer messages and the last
 * message are never dropped. `cost(i)` is what message i adds to the prompt. Returns null when even
 * the kept messages are too long (the context error stands).
 */
export function compressMiddle<M extends { role: string }>(messages: readonly M[], total: number, cost: (index: number) => number, limit: number): M[] | null {
  let first = 0
  while (first < messages.length - 1 && (messages[first]!.role === 'system' || messages[first]!.role === 'developer')) first++
  const last = messages.length - 1
  // The droppable range is [first, last): drop its middle, then alternately outwards.
  const dropped = new Set<number>()
  let tokens = total
  let low = Math.floor((first + last - 1) / 2)
  let high = low + 1
  for (let turn = 0; tokens > limit && (low >= first || high < last); turn++) {
    const index = turn % 2 === 0 ? (low >= first ? low-- : high++) : high < last ? high++ : low--
    dropped.add(index)
    tokens -= cost(index)
  }
  return tokens > limit ? null : messages.filter((_, i) => !dropped.has(i))
}

const CLOSER: Record<string, string> = { '{': '}', '[': ']' }

/**
 * `text` as valid JSON if it can be repaired, else unchanged. Valid JSON is returned as it is. The
 * value is the first object or array in the text (a Markdown fence and prose around it are dropped);
 * what is cut short is closed.
 */
export function healJson(text: string): string {
  if (parses(text)) return text
  const unfenced = text.replace(/```[a-z]*/gi, '')
  const start = unfenced.search(/[[{]/)
  if (start === -1) return text
  const stack: string[] = []
  let out = ''
  let inString = false
  let escaped = false
  for (let i = start; i < unfenced.length; i++) {
    const char = unfenced[i]!
    out += char
    if (inString) {
      if (escaped) escaped = false
      else if (char === '\\') escaped = true
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{' || char === '[') stack.push(CLOSER[char]!)
    else if (char === '}' || char === ']') {
      // A trailing comma before the closer goes.
      out = out.slice(0, -1).replace(/,\s*$/, '') + char
      stack.pop()
      if (stack.length === 0) break
    }
  }
  if (escaped) out = out.slice(0, -1)
  if (inString) out += '"'
  // A dangling comma or colon at the cut, then the brackets left open.
  const healed = out.replace(/[,:\s]+$/, '') + stack.toReversed().join('')
  return parses(healed) ? healed : text
}

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
