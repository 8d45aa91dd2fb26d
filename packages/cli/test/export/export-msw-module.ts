import type { RequestHandler } from 'msw'

/** The shape of a module `export-msw` writes, for the test's import. */
export declare const handlers: RequestHandler[]
export declare function resetReplay(): void
