// Where the package lives (fixtures, the built UI, package.json), whether it runs as TypeScript
// (src/emulator), compiled (dist), bundled (out/cli) or installed in another project's node_modules.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGE_NAME = 'model-gateway-emulator'

/**
 * The package's own folder (fixtures, the built UI, package.json), found by walking up from this
 * module: it runs as TypeScript (src/emulator), compiled (dist), bundled (out/cli) and installed in
 * another project's node_modules, each at a different depth.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package above ${from}`)
  }
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)))
export const BUNDLED_FIXTURES = join(PACKAGE_ROOT, 'fixtures')
