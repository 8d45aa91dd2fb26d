import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Packs every published package with `pnpm pack`, as `pnpm publish` would, and checks the tarball
 * a user installs: README.md, LICENSE and package.json, every file package.json points to, and
 * none of the build's bookkeeping (`.tsbuildinfo`), sources or tests. The expected files are read
 * from each package.json, so a new export needs no change here.
 */

const exec = promisify(execFile)
const root = fileURLToPath(new URL('../../', import.meta.url))
const tsc = `${root}node_modules/typescript/bin/tsc`

/** The fields of package.json this test reads. */
interface Manifest {
  name: string
  private?: boolean
  license?: string
  files?: string[]
  main?: string
  module?: string
  types?: string
  typings?: string
  bin?: string | Record<string, string>
  exports?: unknown
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

interface Package {
  /** `packages/<name>`, relative to the repository root. */
  dir: string
  manifest: Manifest
}

interface Tarball {
  /** Paths inside the tarball, without the leading `package/`. */
  files: string[]
  manifest: Manifest
  readme: string
  license: string
}

/** Files npm and pnpm put in every tarball, whatever `files` says. */
const ALWAYS_PACKED = ['package.json', 'README.md', 'LICENSE']

/** Every packages/* folder whose package.json is not private. */
function publishedPackages(): Package[] {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'packages', entry.name, 'package.json')))
    .map((entry) => {
      const dir = `packages/${entry.name}`
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest
      return { dir, manifest }
    })
    .filter(({ manifest }) => manifest.private !== true)
}

/** Collects the target strings of an `exports` value: a path, an array of them, or conditions. */
function exportTargets(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value)
  else if (Array.isArray(value)) for (const item of value) exportTargets(item, into)
  else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) exportTargets(item, into)
  }
  return into
}

/** Every file package.json points a user at (main, module, types, bin, exports), without `./`. */
function entryPaths(manifest: Manifest): string[] {
  const bin = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})
  const paths = [manifest.main, manifest.module, manifest.types, manifest.typings, ...bin]
  const all = [...paths.filter((path) => path !== undefined), ...exportTargets(manifest.exports, [])]
  return [...new Set(all.map((path) => posix.normalize(path)))]
}

/**
 * Whether `files` holds the entry; a subpath pattern (`./dist/*.js`) must match at least one file.
 * In a pattern `*` may stand for several path segments, as Node resolves it.
 */
function isPacked(entry: string, files: readonly string[]): boolean {
  if (!entry.includes('*')) return files.includes(entry)
  const escaped = entry.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  const pattern = new RegExp(`^${escaped.join('.+')}$`)
  return files.some((file) => pattern.test(file))
}

/** The entries of a package that are not on disk (patterns are checked in the tarball only). */
function missingOnDisk({ dir, manifest }: Package): string[] {
  return entryPaths(manifest).filter((entry) => !entry.includes('*') && !existsSync(join(root, dir, entry)))
}

/**
 * Builds the packages whose entries are missing (`pnpm test` builds before this runs). `--force`,
 * because plain `tsc -b` trusts the .tsbuildinfo beside tsconfig.json and takes a deleted `dist`
 * for up to date.
 */
async function ensureBuilt(packages: readonly Package[]): Promise<void> {
  const unbuilt = packages.filter((pkg) => missingOnDisk(pkg).length > 0)
  if (unbuilt.length === 0) return
  let output = ''
  await exec(process.execPath, [tsc, '-b', '--force', ...unbuilt.map((pkg) => pkg.dir)], { cwd: root }).catch(
    (error: { stdout?: string }) => {
      output = error.stdout ?? ''
    },
  )
  const missing = unbuilt.flatMap((pkg) => missingOnDisk(pkg).map((entry) => `${pkg.dir}/${entry}`))
  if (missing.length > 0) {
    throw new Error(
      `Not built: ${missing.join(', ')} (named in package.json) still missing after ` +
        `tsc -b --force. Run pnpm build and fix what it reports.\n${output}`,
    )
  }
}

/** Packs one package into `destination` with pnpm and reads the tarball back. */
async function pack(dir: string, destination: string): Promise<Tarball> {
  const { stdout } = await exec('pnpm', ['pack', '--pack-destination', destination, '--json'], {
    cwd: join(root, dir),
  })
  const { filename } = JSON.parse(stdout) as { filename: string }
  const { stdout: listing } = await exec('tar', ['-tzf', filename])
  const files = listing
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''))
  const read = async (path: string) => {
    if (!files.includes(path)) return ''
    return (await exec('tar', ['-xzOf', filename, `package/${path}`])).stdout
  }
  const [manifest, readme, license] = await Promise.all([
    read('package.json'),
    read('README.md'),
    read('LICENSE'),
  ])
  return { files, manifest: JSON.parse(manifest) as Manifest, readme, license }
}

const packages = publishedPackages()
const tarballs = new Map<string, Tarball>()
const destination = mkdtempSync(join(tmpdir(), 'cdp-pack-'))
const planted: string[] = []

beforeAll(async () => {
  await ensureBuilt(packages)
  // tsc now writes its build info beside tsconfig.json, so a fresh build leaves none in dist; one
  // left there by an older build must still stay out of the tarball (`files` excludes it).
  for (const { dir } of packages) {
    const stale = join(root, dir, 'dist/.tsbuildinfo')
    if (existsSync(stale)) continue
    writeFileSync(stale, '{}\n')
    planted.push(stale)
  }
  await Promise.all(
    packages.map(async ({ dir }) => {
      tarballs.set(dir, await pack(dir, destination))
    }),
  )
}, 60_000)

afterAll(() => {
  for (const file of planted) rmSync(file, { force: true })
  rmSync(destination, { recursive: true, force: true })
})

describe('entryPaths and isPacked', () => {
  it('reads main, module, types, bin and every condition of exports, once each', () => {
    const manifest: Manifest = {
      name: 'x',
      main: './dist/index.js',
      types: './dist/index.d.ts',
      bin: { x: './dist/cli.js' },
      exports: {
        '.': { types: './dist/index.d.ts', import: { node: './dist/node.js', default: './dist/index.js' } },
        './adapter': ['./dist/adapter.js'],
        './features/*': './dist/features/*.js',
        './internal/*': null,
        './package.json': './package.json',
      },
    }
    expect(entryPaths(manifest).sort()).toEqual([
      'dist/adapter.js',
      'dist/cli.js',
      'dist/features/*.js',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/node.js',
      'package.json',
    ])
  })

  it.each([
    ['dist/index.js', ['dist/index.js'], true],
    ['dist/index.js', ['dist/index.d.ts'], false],
    ['dist/features/*.js', ['dist/features/a/b.js'], true],
    ['dist/features/*.js', ['dist/features/.js', 'dist/other/a.js'], false],
    ['dist/a+b.js', ['dist/aab.js'], false],
  ])('%s in %j → %s', (entry, files, expected) => {
    expect(isPacked(entry, files)).toBe(expected)
  })
})

describe('published packages', () => {
  it('are the nine of the repository', () => {
    expect(packages.map(({ manifest }) => manifest.name).sort()).toEqual([
      '@cors-dev-proxy/angular',
      '@cors-dev-proxy/core',
      '@cors-dev-proxy/next',
      '@cors-dev-proxy/nuxt',
      '@cors-dev-proxy/playwright',
      '@cors-dev-proxy/rsbuild',
      '@cors-dev-proxy/vite',
      '@cors-dev-proxy/webpack',
      'cors-dev-proxy',
    ])
  })
})

describe.each(packages)('the tarball of $manifest.name', ({ dir, manifest }) => {
  const tarball = () => tarballs.get(dir)!

  it('holds README.md, LICENSE and package.json', () => {
    expect(tarball().files).toEqual(expect.arrayContaining(ALWAYS_PACKED))
  })

  it('has a README about this package and the repository MIT license', () => {
    expect(tarball().readme.split('\n')[0]).toBe(`# ${manifest.name}`)
    expect(tarball().license).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'))
    expect(tarball().manifest.license).toBe('MIT')
  })

  it('holds every file its package.json points to', () => {
    const entries = entryPaths(tarball().manifest)
    expect(entries.length).toBeGreaterThan(1)
    expect(entries.filter((entry) => !isPacked(entry, tarball().files))).toEqual([])
  })

  it('holds no build info, sources or tests', () => {
    const { files } = tarball()
    expect(files.filter((file) => file.endsWith('.tsbuildinfo'))).toEqual([])
    expect(files.filter((file) => /(^|\/)(src|test|tests|__tests__)\//.test(file))).toEqual([])
    expect(files.filter((file) => /\.test\.[cm]?[jt]s$/.test(file))).toEqual([])
  })

  it('holds only the folders `files` names, plus the files always packed', () => {
    const folders = (manifest.files ?? []).filter((entry) => !entry.startsWith('!'))
    const stray = tarball().files.filter(
      (file) => !ALWAYS_PACKED.includes(file) && !folders.some((folder) => file.startsWith(`${folder}/`)),
    )
    expect(stray).toEqual([])
  })

  it('depends on released versions, not on workspace: ranges', () => {
    const { dependencies, peerDependencies, optionalDependencies } = tarball().manifest
    const ranges = Object.values({ ...dependencies, ...peerDependencies, ...optionalDependencies })
    expect(ranges.filter((range) => range.startsWith('workspace:'))).toEqual([])
  })
})
