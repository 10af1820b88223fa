// Emulated web search: seeded, made-up results on reserved example domains (`https://wiki.example/...`),
// built from the question's key words, and the answer's citations of them. Nothing touches the network:
// the same question (and seed) finds the same pages. The answer ends with a list of its sources, one
// markdown link each, and each `url_citation` annotation's start and end index frame its link in the text.
import { createRng } from '../../core/rng.ts'
import { countTokens } from '../../core/tokens.ts'
import { keyWords, type Answer, type UrlCitation } from './text-answer.service.ts'

export interface WebPage {
  url: string
  title: string
  content: string
}

const SITES = ['wiki', 'news', 'docs', 'journal', 'forum', 'library', 'encyclopedia', 'review'] as const

const titled = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)

/** The words a search for `question` looks up (its key words; `search` where it has none). */
export function searchQuery(question: string): string {
  const words = keyWords(question, 4).filter((w) => /^[a-z0-9]+$/.test(w))
  return (words.length > 0 ? words : ['search']).join(' ')
}

/** The pages one search for `question` finds: `count` of them, fixed by the seeds and the question. */
export function searchWeb(seed: number, requestSeed: number | null, question: string, count: number): WebPage[] {
  const rng = createRng(seed, `web:${requestSeed ?? ''}:${question}`)
  const words = keyWords(question, 4).filter((w) => /^[a-z0-9]+$/.test(w))
  const topic = words.length > 0 ? words : ['search']
  return Array.from({ length: count }, (_, i) => {
    const site = SITES[(rng.int(0, SITES.length - 1) + i) % SITES.length]!
    const picked = topic.filter((_, w) => w === i % topic.length || rng.chance(0.5))
    const slug = `${picked.join('-')}-${rng.hex(6)}`
    const title = `${picked.map(titled).join(' ')} | ${titled(site)}`
    return {
      url: `https://${site}.example/${slug}`,
      title,
      content: `${titled(site)} page about ${picked.join(' ')}: an emulated search result, made up for the question.`,
    }
  })
}

/**
 * An answer that cites `pages`: its text followed by its sources, and their annotations. Answers without
 * text (tool calls only) are left as they are.
 */
export function citeAnswer(answer: Answer, pages: readonly WebPage[]): Answer {
  if (answer.content === null || pages.length === 0) return answer
  let content = `${answer.content}\n\nSources:`
  const annotations: UrlCitation[] = []
  pages.forEach((page, i) => {
    content += `\n${i + 1}. `
    const link = `[${page.title}](${page.url})`
    annotations.push({ ...page, start_index: content.length, end_index: content.length + link.length })
    content += link
  })
  const added = countTokens(content.slice(answer.content.length))
  return { ...answer, content, completionTokens: answer.completionTokens + added, annotations }
}
