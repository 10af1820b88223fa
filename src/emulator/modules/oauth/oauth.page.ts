// The browser half of the PKCE flow, as the real site has it: an app sends a person to
// /auth?callback_url=...&code_challenge=...&code_challenge_method=S256 (what @openrouter/sdk's
// oAuth.createAuthorizationUrl builds from the server URL), which leads to the emulator's
// authorization page. There the person picks an account and clicks Authorize or Deny, and the browser
// is sent (303) to the callback with ?code= or ?error=access_denied. The emulator never requests the
// callback itself.
//
// The page is in the admin scope (pages): the Host check, the Origin check on the form's POST (no other
// site can submit it), the admin token beyond loopback and the frame guard all apply. It is rendered
// here, with every value escaped, and its policy allows no script at all: only its own stylesheet
// (by hash), forms posted to itself, and the redirect of that form to the callback's origin.
import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ApiError, fieldError } from '../../core/errors.ts'
import type { AccountRow } from '../accounts/accounts.repo.ts'
import type { EmulatorContext } from '../module.ts'
import { CHALLENGE_METHODS, CODE_LIFETIME, checkCallbackUrl, checkChallenge, issueCode, redirectTarget, type PkceChallenge } from './oauth.service.ts'
import type { ChallengeMethod } from './oauth.repo.ts'

/** Where the page is: under /_emulator, so the admin token's cookie (Path=/_emulator) reaches it. */
export const AUTH_PAGE = '/_emulator/auth'
/** The real site's path, which apps and the SDK build: a redirect to the page. */
export const AUTH_LINK = '/auth'

const FORM_LIMIT = 16 * 1024

const STYLE = `
body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:36rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #dde1e8;border-radius:12px}
h1{font-size:1.4rem;margin:0 0 .75rem}
code{background:#eef1f5;padding:.1rem .3rem;border-radius:4px;word-break:break-all}
fieldset{border:1px solid #dde1e8;border-radius:8px;margin:1.25rem 0;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;padding:.5rem 0;cursor:pointer}
label small{display:block;color:#5b6475;margin-left:1.6rem}
.actions{display:flex;gap:.75rem}
button{font:inherit;padding:.55rem 1.2rem;border-radius:8px;border:1px solid #2f5bd3;background:#2f5bd3;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1d2330;border-color:#b8bfcc}
.note{color:#5b6475;font-size:.9rem;margin-top:1.5rem}
.error{color:#a01c1c}
`
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`

/** A CSP host-source: scheme, host name or bracketed IPv6, port. Nothing that could end a source or a directive. */
const SOURCE = /^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/

/**
 * The page's policy: no script, its own style, forms only to itself and (by redirect) to the callback's
 * origin. The origin comes from a checked callback URL, and is left out unless it is a plain source.
 */
const policy = (callbackOrigin: string | null): string =>
  [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `form-action 'self'${callbackOrigin !== null && SOURCE.test(callbackOrigin) ? ` ${callbackOrigin}` : ''}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

const layout = (title: string, body: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Model Gateway Emulator</title>
<style>${STYLE}</style></head>
<body><main>
${body}
</main></body></html>
`

/** What a link to the page asks for, checked: any problem is a 400 naming the parameter. */
interface Request {
  callback: URL
  challenge: PkceChallenge | null
  limit: number | null
}

/** One text value of a query or form (the first when repeated), or undefined. */
function text(values: Record<string, unknown>, name: string): string | undefined {
  const value = values[name]
  const first = Array.isArray(value) ? (value as unknown[])[0] : value
  return typeof first === 'string' && first !== '' ? first : undefined
}

function readRequest(values: Record<string, unknown>, location: string): Request {
  const callbackText = text(values, 'callback_url')
  if (callbackText === undefined) throw fieldError('callback_url', 'is required: the address the app receives the code at', location)
  const callback = checkCallbackUrl(callbackText, 'callback_url', location)
  const methodText = text(values, 'code_challenge_method')
  if (methodText !== undefined && !(CHALLENGE_METHODS as readonly string[]).includes(methodText)) {
    throw fieldError('code_challenge_method', `must be one of ${CHALLENGE_METHODS.join(', ')}`, location)
  }
  const challengeText = text(values, 'code_challenge')
  if (challengeText !== undefined && challengeText.length > 128) throw fieldError('code_challenge', 'must be at most 128 characters', location)
  const challenge = checkChallenge(challengeText, methodText as ChallengeMethod | undefined, location)
  const limitText = text(values, 'limit')
  let limit: number | null = null
  if (limitText !== undefined) {
    limit = Number(limitText)
    if (limitText.length > 32 || !Number.isFinite(limit) || limit < 0 || limit > 1e9)
      throw fieldError('limit', 'must be a number of USD from 0 to 1e9', location)
  }
  return { callback, challenge, limit }
}

/** The hidden fields that carry the request from the page to its form's POST (checked again there). */
function hiddenFields(values: Record<string, unknown>): string {
  return ['callback_url', 'code_challenge', 'code_challenge_method', 'limit']
    .map((name) => [name, text(values, name)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${esc(value!)}">`)
    .join('\n')
}

function accountChoice(ctx: EmulatorContext, account: AccountRow, checked: boolean): string {
  const member = ctx.services.accounts.members(account.id)[0]
  const who = member ? `signed in as ${esc(member.name)} &lt;${esc(member.email)}&gt;` : 'no members'
  return `<label><input type="radio" name="account_id" value="${esc(account.id)}"${checked ? ' checked' : ''}> ${esc(account.name)}
<small>${esc(account.id)} · ${who}</small></label>`
}

function consentPage(ctx: EmulatorContext, request: Request, values: Record<string, unknown>): string {
  const accounts = ctx.services.accounts.list()
  const app = request.callback.host
  const terms = [
    request.limit === null ? 'no spending limit' : `a spending limit of $${request.limit}`,
    request.challenge === null ? 'no code challenge (anyone holding the code can exchange it)' : `a ${request.challenge.method} code challenge`,
  ]
  const choices =
    accounts.length === 0
      ? '<p class="error">This emulator has no account to authorize with.</p>'
      : `<fieldset><legend>Account</legend>\n${accounts.map((a, i) => accountChoice(ctx, a, i === 0)).join('\n')}\n</fieldset>`
  return layout(
    `Authorize ${app}`,
    `<h1>Authorize <code>${esc(app)}</code></h1>
<p>An app at <code>${esc(request.callback.origin)}</code> asks for an API key of this Model Gateway Emulator, with ${esc(terms.join(' and '))}.
The key is sent back to <code>${esc(request.callback.href)}</code> as a one-time code.</p>
<form method="post" action="${AUTH_PAGE}">
${hiddenFields(values)}
${choices}
<div class="actions">
${accounts.length === 0 ? '' : '<button type="submit" name="decision" value="authorize">Authorize</button>\n'}<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>
<p class="note">The emulator's stand-in for the real site's authorization page: nobody signs in, and any account of this emulator may be picked.
The code can be exchanged once, within ${CODE_LIFETIME} of the emulator's clock, at <code>POST /api/v1/auth/keys</code>.</p>`,
  )
}

const errorPage = (message: string): string =>
  layout(
    'Authorization link not valid',
    `<h1>This authorization link cannot be used</h1>
<p class="error">${esc(message)}</p>
<p>Nothing was sent to the app. The app that sent you here builds this link: its <code>callback_url</code> must be an https URL,
or an http URL on localhost or 127.0.0.1.</p>`,
  )

function sendPage(reply: FastifyReply, status: number, html: string, callbackOrigin: string | null): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', policy(callbackOrigin))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .send(html)
}

/** Runs `render`; a client's mistake (an ApiError below 500) becomes the error page with its status. */
function orErrorPage(reply: FastifyReply, render: () => FastifyReply): FastifyReply {
  try {
    return render()
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return sendPage(reply, error.status, errorPage(error.message), null)
    throw error
  }
}

export async function oauthPages(app: FastifyInstance, { ctx }: { ctx: EmulatorContext }): Promise<void> {
  // The form posts url-encoded fields; this scope alone reads them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)))
  })

  app.get(AUTH_PAGE, { config: { operation: 'ui.oauth.page' } }, async (request, reply) => {
    const values = (request.query ?? {}) as Record<string, unknown>
    return orErrorPage(reply, () => {
      const checked = readRequest(values, 'querystring')
      return sendPage(reply, 200, consentPage(ctx, checked, values), checked.callback.origin)
    })
  })

  app.post(AUTH_PAGE, { config: { operation: 'ui.oauth.decide' }, bodyLimit: FORM_LIMIT }, async (request, reply) => {
    const values = (request.body ?? {}) as Record<string, unknown>
    return orErrorPage(reply, () => {
      const checked = readRequest(values, 'body')
      const decision = text(values, 'decision')
      if (decision === 'deny') return reply.redirect(redirectTarget(checked.callback, { error: 'access_denied' }), 303)
      if (decision !== 'authorize') throw fieldError('decision', 'must be authorize or deny')
      const accountId = text(values, 'account_id')
      const account = accountId === undefined ? undefined : ctx.services.accounts.get(accountId)
      if (!account) throw fieldError('account_id', 'must be an account of this emulator')
      const row = issueCode(ctx, {
        account,
        userId: ctx.services.accounts.members(account.id)[0]?.id ?? null,
        callback: checked.callback,
        challenge: checked.challenge,
        keyName: checked.callback.host,
        limitUsd: checked.limit,
        limitReset: null,
        keyExpiresAt: null,
        workspaceId: account.workspace_id,
      })
      return reply.redirect(redirectTarget(checked.callback, { code: row.id }), 303)
    })
  })
}

/** GET /auth: the real site's path, sent on to the page with its query as it came. */
export async function oauthShortcuts(app: FastifyInstance): Promise<void> {
  app.get(AUTH_LINK, { config: { operation: 'ui.oauth.link' } }, async (request, reply) => {
    const query = request.url.indexOf('?')
    return reply.header('cache-control', 'no-store').redirect(query === -1 ? AUTH_PAGE : `${AUTH_PAGE}${request.url.slice(query)}`, 302)
  })
}
