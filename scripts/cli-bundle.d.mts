export declare const CLI_BUNDLE: string
/** Returns the bundled CLI's path, building it when stale (saying so on stderr with `{ progress: true }`). */
export declare function ensureCliBundle(options?: { progress?: boolean }): string
export declare const UI_BUILD: string
/** Builds the inspector UI when it is missing or stale; returns its index.html. */
export declare function ensureUiBuild(options?: { progress?: boolean }): string
