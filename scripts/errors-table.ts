// Writes the tables of docs/errors.md from the areas' `*.errors.ts` files: each refusal the emulator
// answers is a named function there, and its status and message are read from the source (following
// the file's own helpers, such as the video router's `routerError` or `fieldError`), so each is
// written once, in the code. A test (grep -rl "docs:errors rewrites" test/) fails when the page is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const SOURCES = join(ROOT, 'src', 'emulator')
const PAGE = join(ROOT, 'docs', 'errors.md')
const START = /<!-- errors-table:[^\n]*-->\n/
const END = '<!-- /errors-table -->'

/** A function of an errors file: its parameters (with any default) and the expression it answers. */
interface Builder {
  readonly name: string
  readonly params: readonly { name: string; fallback: string | undefined }[]
  readonly body: string
  readonly doc: string
  readonly exported: boolean
}

/** One refusal as the page shows it. */
export interface Refusal {
  readonly name: string
  readonly params: string
  readonly answers: readonly { status: string; message: string }[]
  readonly doc: string
}

// ---- Reading TypeScript source just enough -----------------------------------------------------

/** The index just past the bracket that closes the one at `open`, skipping strings, templates and comments. */
function closing(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]!
    if (c === "'" || c === '"') i = stringEnd(text, i)
    else if (c === '`') i = templateEnd(text, i)
    else if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i)
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i) + 1
    else if ('([{'.includes(c)) depth++
    else if (')]}'.includes(c) && --depth === 0) return i + 1
  }
  return text.length
}

const stringEnd = (text: string, at: number): number => {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === text[at]) return i
  }
  return text.length
}

function templateEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '`') return i
    else if (text[i] === '$' && text[i + 1] === '{') i = closing(text, i + 1) - 1
  }
  return text.length
}

/** The top-level pieces of `text` split at `separator` (outside brackets, strings and templates). */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = []
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === "'" || c === '"') i = stringEnd(text, i)
    else if (c === '`') i = templateEnd(text, i)
    else if ('([{'.includes(c)) i = closing(text, i) - 1
    else if (text.startsWith(separator, i)) {
      parts.push(text.slice(from, i).trim())
      from = i + separator.length
      i += separator.length - 1
    }
  }
  parts.push(text.slice(from).trim())
  return parts.filter((part) => part !== '')
}

/** The arguments of the call whose `(` is at `open`. */
const argumentsAt = (text: string, open: number): string[] => splitTop(text.slice(open + 1, closing(text, open) - 1), ',')

/** The functions of an errors file: `const name = (...) => ...` and `function name(...) {...}`, exported or not. */
function builders(text: string): Builder[] {
  const out: Builder[] = []
  const head = /^(export )?(?:const (\w+)\s*=\s*\(|function (\w+)\s*\()/gm
  for (let match = head.exec(text); match; match = head.exec(text)) {
    const name = (match[2] ?? match[3])!
    const open = text.indexOf('(', match.index + match[0].length - 1)
    // Type arguments go (`Record<string, string>`): only the parameters' names and defaults are read.
    let params = text.slice(open + 1, closing(text, open) - 1)
    while (/<[^<>]*>/.test(params)) params = params.replace(/<[^<>]*>/g, '')
    const next = /^(?:export |const |function |\/\*\*|\/\/ ----|declare |interface |class )/m.exec(text.slice(closing(text, open)))
    const body = text.slice(closing(text, open), next ? closing(text, open) + next.index : text.length)
    const before = text.slice(0, match.index).trimEnd()
    const doc = before.endsWith('*/') ? before.slice(before.lastIndexOf('/**')) : ''
    out.push({
      name,
      exported: match[1] !== undefined,
      doc: doc
        .replace(/^\/\*\*|\*\/$/g, '')
        .split('\n')
        .map((line) => line.replace(/^\s*\*\s?/, '').trim())
        .join(' ')
        .trim(),
      params: splitTop(params, ',').map((param) => {
        const [left, fallback] = splitTop(param, '=')
        return { name: left!.replace(/[?:].*$/s, '').trim(), fallback }
      }),
      body,
    })
  }
  return out
}

// ---- Rendering what a refusal says ---------------------------------------------------------------

type Env = ReadonlyMap<string, string>

/** A message's source as a reader sees it: literal text as it is, what varies in braces (`{id}`). */
function render(source: string, env: Env): string {
  const src = source.trim()
  if (/^'(?:[^'\\]|\\.)*'$|^"(?:[^"\\]|\\.)*"$/.test(src)) return src.slice(1, -1).replace(/\\(.)/g, '$1')
  if (src.startsWith('`') && templateEnd(src, 0) === src.length - 1) {
    let out = ''
    for (let i = 1; i < src.length - 1; i++) {
      if (src[i] === '\\') out += src[++i]
      else if (src[i] === '$' && src[i + 1] === '{') {
        const end = closing(src, i + 1)
        out += render(src.slice(i + 2, end - 1), env)
        i = end - 1
      } else out += src[i]
    }
    return out
  }
  if (/^\d+$/.test(src)) return src
  if (/^\w+$/.test(src)) return env.get(src) ?? `{${src}}`
  const ternary = splitTop(src, '?')
  if (ternary.length === 2) {
    const branches = splitTop(ternary[1]!, ':')
    if (branches.length === 2) {
      const [yes, no] = [render(branches[0]!, env), render(branches[1]!, env)]
      // A condition on a parameter given as a literal (fieldError's location) is decided here.
      const test = /^(\w+) (===|!==) '([^']*)'$/.exec(ternary[0]!)
      const known = test ? env.get(test[1]!) : undefined
      if (test && known !== undefined && !known.includes('{')) return (known === test[3]) === (test[2] === '===') ? yes : no
      if (yes === '' || no === '') return `[${yes || no}]`
      return `${yes} *or* ${no}`
    }
  }
  return `{${src.replace(/\s+/g, ' ')}}`
}

const FIELD_ERROR: Builder = {
  name: 'fieldError',
  exported: false,
  doc: '',
  params: [
    { name: 'field', fallback: undefined },
    { name: 'issue', fallback: undefined },
    { name: 'location', fallback: "'body'" },
  ],
  body: "=> new ApiError(400, location === 'querystring' ? `Query parameter \\`${field}\\` ${issue}` : `Field \\`${field}\\` ${issue}`)",
}

/** What `body` answers, with `env` giving its parameters' values, through the file's helpers. */
function answers(body: string, env: Env, helpers: ReadonlyMap<string, Builder>, depth = 0): { status: string; message: string }[] {
  const out: { status: string; message: string }[] = []
  for (let at = body.indexOf('new ApiError('); at !== -1; at = body.indexOf('new ApiError(', at + 1)) {
    const [status, message] = argumentsAt(body, at + 'new ApiError'.length)
    out.push({ status: render(status ?? '', env), message: render(message ?? '', env) })
  }
  if (out.length > 0 || depth > 4) return out
  const call = /\b(\w+)\(/g
  for (let match = call.exec(body); match; match = call.exec(body)) {
    const helper = helpers.get(match[1]!)
    if (!helper) continue
    const args = argumentsAt(body, match.index + match[1]!.length)
    const inner = new Map(helper.params.map((param, i) => [param.name, render(args[i] ?? param.fallback ?? param.name, env)]))
    return answers(helper.body, inner, helpers, depth + 1)
  }
  return out
}

/** The refusals of one errors file, in its order. */
export function refusals(text: string): Refusal[] {
  const all = builders(text)
  const helpers = new Map([[FIELD_ERROR.name, FIELD_ERROR], ...all.map((b) => [b.name, b] as const)])
  return all
    .filter((builder) => builder.exported)
    .map((builder) => ({
      name: builder.name,
      params: builder.params.map((param) => param.name).join(', '),
      doc: builder.doc,
      answers: answers(builder.body, new Map(builder.params.map((param) => [param.name, `{${param.name}}`])), helpers),
    }))
    .filter((refusal) => refusal.answers.length > 0)
}

function errorFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? errorFiles(join(dir, entry.name)) : entry.name.endsWith('.errors.ts') ? [join(dir, entry.name)] : []))
    .sort()
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\s+/g, ' ').trim()

/** The tables of every refusal, one section per errors file. */
export function currentTables(): string {
  const sections = errorFiles(SOURCES).map((file) => {
    const path = relative(SOURCES, file).split('\\').join('/')
    const rows = refusals(readFileSync(file, 'utf8')).map((refusal) => {
      const status = [...new Set(refusal.answers.map((a) => a.status))].join(' or ')
      const message = refusal.answers.map((a) => cell(a.message)).join('<br>or ')
      return `| \`${refusal.name}(${refusal.params})\` | ${status} | ${message}${refusal.doc ? `<br>*${cell(refusal.doc)}*` : ''} |`
    })
    return [
      `### ${path
        .replace(/\.errors\.ts$/, '')
        .split('/')
        .at(-1)}`,
      '',
      `\`src/emulator/${path}\``,
      '',
      '| refusal | status | message |',
      '| --- | --- | --- |',
      ...rows,
    ].join('\n')
  })
  return sections.join('\n\n')
}

export function withErrorsTables(page: string, tables: string): string {
  const start = START.exec(page)
  const end = page.indexOf(END)
  if (!start || end < start.index) throw new Error('docs/errors.md lacks the errors-table markers')
  return `${page.slice(0, start.index + start[0].length)}${tables}\n${page.slice(end)}`
}

if (import.meta.main) {
  writeFileSync(PAGE, withErrorsTables(readFileSync(PAGE, 'utf8'), currentTables()))
  console.log('docs/errors.md: tables written')
}
