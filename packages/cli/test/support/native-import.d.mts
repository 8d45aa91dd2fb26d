/** `import()` as Node runs it, not rewritten by Vitest (see native-import.mjs). */
export declare const nativeImport: (specifier: string) => Promise<unknown>
