// The models list as an RSS 2.0 feed (GET /api/v1/models?use_rss=true). Item titles follow the
// real feed's "Author: Name (slug)"; links point at this emulator's inspector.
import { formatPricePerMillion } from '../../core/money.ts'
import type { CatalogModel } from './catalog.schemas.ts'

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

/** CDATA cannot hold "]]>", so a text that has it is split across two sections. */
const cdata = (text: string): string => `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`

const rfc822 = (unixSeconds: number): string => new Date(unixSeconds * 1000).toUTCString()

function describeModel(m: CatalogModel): string {
  return (
    `<p>${escapeXml(m.description)}</p>` +
    `<p>Context: ${m.context_length.toLocaleString('en-US')} tokens. ` +
    `Input: ${formatPricePerMillion(m.pricing.prompt)}/M tokens. Output: ${formatPricePerMillion(m.pricing.completion)}/M tokens.</p>`
  )
}

export function modelsFeed(models: readonly CatalogModel[], origin: string, chatLinks: boolean): string {
  const link = (m: CatalogModel): string => (chatLinks ? `${origin}/_emulator/chat?models=${encodeURIComponent(m.id)}` : `${origin}/_emulator/models/${m.id}`)
  const newest = models.reduce((max, m) => Math.max(max, m.created), 0)
  const items = models.map(
    (m) => `    <item>
      <title>${cdata(`${m.name} (${m.id})`)}</title>
      <link>${escapeXml(link(m))}</link>
      <description>${cdata(describeModel(m))}</description>
      <guid isPermaLink="false">${escapeXml(m.id)}</guid>
      <pubDate>${rfc822(m.created)}</pubDate>
    </item>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Model Gateway Emulator: models</title>
    <link>${escapeXml(`${origin}/_emulator/`)}</link>
    <atom:link href="${escapeXml(`${origin}/api/v1/models?use_rss=true`)}" rel="self" type="application/rss+xml"/>
    <description>The models of the emulated Model Gateway catalog.</description>
    <language>en</language>
    ${newest > 0 ? `<lastBuildDate>${rfc822(newest)}</lastBuildDate>` : ''}
${items.join('\n')}
  </channel>
</rss>
`
}
