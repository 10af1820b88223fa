// What the Files API refuses: files it does not hold in the scope asked, downloads of uploads, uploads
// it cannot take (empty, too large, of a type it does not read, over the account's room), and list
// cursors it does not support.
import { ApiError, fieldError } from '../../core/errors.ts'
import { ACCEPTED_TYPES } from '../../media/file-sniff.ts'

export const fileNotFound = (id: string): ApiError => new ApiError(404, `File ${id} not found`, { metadata: { field: 'file_id', location: 'params' } })

export const notDownloadable = (id: string): ApiError =>
  new ApiError(400, `File ${id} is not downloadable: only files created server-side can be downloaded, and uploaded files cannot`, {
    metadata: { field: 'file_id', location: 'params', downloadable: false },
  })

export const emptyFile = (): ApiError => fieldError('file', 'is empty: empty files are rejected')

export const unsupportedFileType = (): ApiError => fieldError('file', `must be ${ACCEPTED_TYPES} (its type is read from its bytes, not its name)`)

export const fileTooLarge = (limitBytes: number): ApiError =>
  new ApiError(413, `Field \`file\` is larger than ${limitBytes / 1024 / 1024} MB, the most one file may hold in the emulator`, {
    metadata: { field: 'file', location: 'body', limit_bytes: limitBytes },
  })

/** How full a room of files is, the file that would pass it, and what its uploads under way have reserved. */
export interface Room {
  usedBytes: number
  fileBytes: number
  limitBytes: number
  files: number
  limitFiles: number
  pendingBytes?: number
  pendingFiles?: number
}

/** A 413 for a full room: one sentence for too many files, one for too many bytes (separate arguments, so docs/errors.md can quote both). */
function roomFull(room: Room, tooManyFiles: string, tooManyBytes: string, scope?: 'emulator'): ApiError {
  const { usedBytes, limitBytes, files, limitFiles, pendingBytes = 0, pendingFiles = 0 } = room
  return new ApiError(413, files + pendingFiles >= limitFiles ? tooManyFiles : tooManyBytes, {
    metadata: {
      field: 'file',
      location: 'body',
      used_bytes: usedBytes,
      limit_bytes: limitBytes,
      files,
      limit_files: limitFiles,
      ...(scope && { scope }),
      ...(pendingFiles > 0 && { pending_bytes: pendingBytes, pending_files: pendingFiles }),
    },
  })
}

const uploadsUnderWay = (pendingFiles: number, pendingBytes: number, whose: 'its' | 'the'): string =>
  pendingFiles === 0 ? '' : `, and ${whose} ${pendingFiles} upload${pendingFiles === 1 ? '' : 's'} under way ${pendingBytes} more`

/**
 * The account's room is full. `pendingBytes` and `pendingFiles`: what its uploads under way (read or
 * waiting) have reserved, when the refusal comes before the body is read, from its declared length.
 */
export const accountStorageFull = (room: Room): ApiError => {
  const { usedBytes, fileBytes, limitBytes, files, pendingBytes = 0, pendingFiles = 0 } = room
  return roomFull(
    room,
    `The account already keeps ${files} files${pendingFiles === 0 ? '' : ` (and ${pendingFiles} under way)`}, the most the emulator keeps for one account: delete some first`,
    `The account's files hold ${usedBytes} bytes${uploadsUnderWay(pendingFiles, pendingBytes, 'its')}; ${fileBytes} more would pass the ${limitBytes / 1024 / 1024} MB the emulator keeps for one account: delete some first`,
  )
}

export const malformedForm = (why: string): ApiError =>
  new ApiError(400, `Malformed multipart/form-data body: ${why}`, { metadata: { field: 'body', location: 'body' } })

export const notAForm = (): ApiError =>
  new ApiError(400, 'Unsupported Content-Type: send the file as multipart/form-data with a `file` part', {
    metadata: { field: 'content-type', location: 'headers' },
  })

export const unsupportedCursor = (field: string, why: string): ApiError => fieldError(field, why, 'querystring')

export const workspaceForbidden = (id: string): ApiError =>
  new ApiError(403, `Workspace ${id} is not a workspace of this account: its files cannot be reached with this key`, {
    metadata: { field: 'workspace_id', location: 'querystring' },
  })

/**
 * The emulator's room for every account's files together is full (MAX_TOTAL_FILE_BYTES, MAX_TOTAL_FILES).
 * `pendingBytes` and `pendingFiles`: what every account's uploads under way have reserved, when the
 * refusal comes before the body is read.
 */
export const emulatorStorageFull = (room: Room): ApiError => {
  const { usedBytes, fileBytes, limitBytes, files, pendingBytes = 0, pendingFiles = 0 } = room
  return roomFull(
    room,
    `The emulator already keeps ${files} files over all its accounts${pendingFiles === 0 ? '' : ` (and ${pendingFiles} under way)`}, the most it keeps: delete some (or reset an account) first`,
    `The files of all accounts hold ${usedBytes} bytes${uploadsUnderWay(pendingFiles, pendingBytes, 'the')}; ${fileBytes} more would pass the ${limitBytes / 1024 / 1024} MB the emulator keeps in all: delete some (or reset an account) first`,
    'emulator',
  )
}

/**
 * 409: the file was being kept when the state under it changed: a reset or an import replaced the
 * state, or its account was reset or deleted. Nothing of it was kept.
 */
export const fileWriteStopped = (reason: 'state' | 'account'): ApiError =>
  new ApiError(
    409,
    reason === 'state'
      ? "The emulator's state was reset or replaced while this file was being kept, so it was not kept: upload it again"
      : 'The account was reset or deleted while this file was being kept, so it was not kept',
    { metadata: { field: 'file', location: 'body', reason: reason === 'state' ? 'state_replaced' : 'account_reset' } },
  )

/** A download cut short: the file was deleted (or the state replaced) while its bytes were being sent. */
export const fileGone = (id: string): ApiError =>
  new ApiError(404, `File ${id} was deleted while it was being downloaded`, { metadata: { field: 'file_id', location: 'params' } })
