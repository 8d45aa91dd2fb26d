import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { angularWorkspaceRoot } from '../src/workspace-root.js'

describe('angularWorkspaceRoot: where a relative recordings.dir goes under ng serve', () => {
  let outside: string
  let workspace: string

  beforeAll(async () => {
    outside = await mkdtemp(join(tmpdir(), 'cdp-angular-root-'))
    workspace = join(outside, 'shop')
    await mkdir(join(workspace, 'src/app'), { recursive: true })
    await writeFile(join(workspace, 'angular.json'), '{ "version": 1, "projects": {} }')
  })
  afterAll(() => rm(outside, { recursive: true, force: true }))

  it('is the folder holding angular.json, from itself or any folder below it', () => {
    expect(angularWorkspaceRoot(workspace)).toBe(workspace)
    expect(angularWorkspaceRoot(join(workspace, 'src/app'))).toBe(workspace)
  })

  it('takes .angular.json as the CLI does', async () => {
    const hidden = join(outside, 'hidden')
    await mkdir(join(hidden, 'src'), { recursive: true })
    await writeFile(join(hidden, '.angular.json'), '{}')
    expect(angularWorkspaceRoot(join(hidden, 'src'))).toBe(hidden)
  })

  it('is the folder it started from when no workspace is above it', () => {
    expect(angularWorkspaceRoot(outside)).toBe(outside)
  })
})
