/**
 * Projects and the one active project every client shares (SPEC §2, §6): creating, loading and
 * listing them, and the active project's settings (SPEC §5). Part of the workspace's state, used
 * in its single thread only.
 */
import { CustomSchemas } from '../schemas/custom'
import {
  checkSettings,
  defaultPresets,
  isEnabled,
  type EmailPreset,
  type PdfPreset,
  type Settings,
} from '../schemas/settings'
import { hex } from '@scure/base'
import { conflict, invalid, notFound } from '../shared/problem'
import { sha256Sync } from '../shared/secrets'
import type { ProjectRow, Store } from './store'

/** Seed §2.11. */
export type Project = { id: string; project_name: string; path: string; created_at: string }
/** The reference application's listing, with `project_name` beside `label`. */
export type ProjectListing = { label: string; path: string; active: boolean; project_name: string }
export type PresetListing = { id: string; label: string; enabled: boolean }

/** The active project as the workspace holds it: its row, settings and custom-schema validators. */
export type ActiveProject = { row: ProjectRow; settings: Settings; schemas: CustomSchemas }

/** Settings are one row; Cloudflare's row limit is 2 MB. */
const SETTINGS_LIMIT = 1024 * 1024

export class Projects {
  #active: ActiveProject | undefined
  /** A project's settings digest, by the settings text it was taken of. */
  readonly #digests = new Map<string, { text: string; digest: string }>()

  /**
   * `timeZone`: the zone a new project takes (the laptop's, as `npm start` passes it); a project
   * keeps it when the laptop travels, until its settings say otherwise.
   */
  constructor(
    private readonly store: Store,
    private readonly transaction: <T>(work: () => T) => T,
    private readonly timeZone = 'UTC',
  ) {
    const id = store.getMeta('active_project')
    const row = id ? store.project(id) : undefined
    if (row) this.#activate(row)
  }

  get active(): ActiveProject | undefined {
    return this.#active
  }

  /** A digest of a project's settings as stored: tags and window sources name it. */
  settingsDigest(projectId: string): string {
    const active = this.#active
    const text = active?.row.id === projectId ? active.row.settings : (this.store.project(projectId)?.settings ?? '')
    const known = this.#digests.get(projectId)
    if (known?.text === text) return known.digest
    const digest = hex.encode(sha256Sync(text))
    this.#digests.set(projectId, { text, digest })
    return digest
  }

  requireActive(): ActiveProject {
    if (!this.#active) throw conflict('No Project Loaded')
    return this.#active
  }

  /** The active project's id; with none loaded, endpoints that name a log answer 404 (SPEC §3). */
  requireForLogs(): string {
    if (!this.#active) throw notFound('Log')
    return this.#active.row.id
  }

  create(projectName: string): Project {
    const settings: Settings = {
      project_name: projectName,
      ...defaultPresets(),
      time_zone: this.timeZone,
      version: 1,
    }
    const row: ProjectRow = {
      id: crypto.randomUUID(),
      path: `projects/${projectName}`,
      created_at: new Date().toISOString(),
      settings: JSON.stringify(settings),
    }
    this.transaction(() => {
      this.store.insertProject(row)
      this.store.setMeta('active_project', row.id)
    })
    this.#activate(row)
    return projectOf(this.#active!)
  }

  load(path: string) {
    const row = this.store.projectByPath(path.replace(/\/+$/, ''))
    if (!row) throw notFound('Project')
    this.store.setMeta('active_project', row.id)
    this.#activate(row)
  }

  list(): ProjectListing[] {
    return this.store.projects().map((row) => {
      const name = (JSON.parse(row.settings) as Settings).project_name
      return { label: name, path: row.path, active: row.id === this.#active?.row.id, project_name: name }
    })
  }

  /** GET /project: the settings and `activeLog`, as the reference application answers, and seed §2.11's fields. */
  details() {
    const active = this.requireActive()
    return { ...active.settings, activeLog: null, ...projectOf(active) }
  }

  /** Which project is active, and nothing of its settings but its name. */
  identity() {
    const active = this.requireActive()
    return { activeLog: null, ...projectOf(active) }
  }

  /** Shallow merge (SPEC §5); the merged whole must be valid and is stored as sent. */
  patchSettings(patch: Record<string, unknown>): Settings {
    const active = this.requireActive()
    const { settings, details } = checkSettings({ ...active.settings, ...patch })
    if (!settings) throw invalid(details)
    const text = JSON.stringify(settings)
    if (text.length > SETTINGS_LIMIT) throw invalid([{ prop: '', message: 'project settings must stay under 1 MB' }])
    // A new name moves the project's path with it, as the reference application moves the
    // project's folder; a name another project has (in any case) is refused.
    let path = active.row.path
    if (settings.project_name !== active.settings.project_name) {
      path = `projects/${settings.project_name}`
      const holder = this.store.projectByPath(path)
      if (holder && holder.id !== active.row.id) throw conflict('Project already exists')
    }
    this.store.updateSettings(active.row.id, text, path)
    this.#activate({ ...active.row, path, settings: text })
    return settings
  }

  presets(kind: 'pdfs' | 'emails', enabled?: boolean): PresetListing[] {
    const presets: Array<PdfPreset | EmailPreset> = this.#active?.settings[kind] ?? []
    return presets
      .filter((p) => enabled === undefined || isEnabled(p) === enabled)
      .map((p) => ({ id: p.id, label: p.label, enabled: isEnabled(p) }))
  }

  /** The settings of any project, for a send window of a project that is no longer the active one. */
  settingsOf(projectId: string): Settings {
    if (this.#active?.row.id === projectId) return this.#active.settings
    const row = this.store.project(projectId)
    if (!row) throw notFound('Project')
    return JSON.parse(row.settings) as Settings
  }

  #activate(row: ProjectRow) {
    const settings = JSON.parse(row.settings) as Settings
    this.#active = { row, settings, schemas: new CustomSchemas(settings) }
  }
}

const projectOf = ({ row, settings }: ActiveProject): Project => ({
  id: row.id,
  project_name: settings.project_name,
  path: row.path,
  created_at: row.created_at,
})
