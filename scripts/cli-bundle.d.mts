export declare const CLI_BUNDLE: string
/** Returns the bundled CLI's path, building it when stale. */
export declare function ensureCliBundle(): string
