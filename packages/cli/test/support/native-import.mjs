/**
 * `import()` as Node runs it. Vitest loads a `.mjs` file with Node itself and leaves its code as
 * written, so this `import()` is Node's, not the one Vitest rewrites in test files and sources.
 *
 * @param {string} specifier an absolute URL
 * @returns {Promise<unknown>}
 */
export const nativeImport = (specifier) => import(specifier)
