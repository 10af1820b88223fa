// No import cycle among module folders, type imports counted: dependency-cruiser's no-circular sees
// files, and two folders can import each other through files that form no cycle. This folds every
// import of src/emulator onto the module folders (the folder holding `<name>.module.ts`) and refuses
// any cycle of folders, naming it.
import { describe, expect, it } from 'vitest'
import { importsOf, moduleFolders, sourceFiles } from '../../helpers/sources.ts'
import { cyclesOf } from '../../helpers/cycles.ts'

/** The module folders each module folder imports from. */
function folderGraph(): Map<string, Set<string>> {
  const folders = [...moduleFolders()].sort((a, b) => b[1].length - a[1].length) // deepest first
  const moduleOf = (file: string): string | undefined => folders.find(([, folder]) => file.startsWith(`${folder}/`))?.[0]
  const graph = new Map<string, Set<string>>()
  for (const file of sourceFiles()) {
    const from = moduleOf(file)
    if (from === undefined) continue
    for (const imported of importsOf(file)) {
      const to = moduleOf(imported)
      if (to !== undefined && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to))
    }
  }
  return graph
}

describe('module folders', () => {
  it('import each other in one direction only', () => {
    expect(cyclesOf(folderGraph())).toEqual([])
  })
})
