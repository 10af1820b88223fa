// electron-vite's `?asset` imports (only the main process uses them): the file is copied next to the
// bundle and the import is its absolute path at run time (see electron-vite/node.d.ts).
declare module '*?asset' {
  const path: string
  export default path
}
