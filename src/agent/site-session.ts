import {
  type AnalyzedSite,
  analyzeSite,
  CommitFiles,
  checkPageSyntax,
  checkSite,
  DirectoryFiles,
  introducedProblems,
  isPagePath,
  PageFactsCache,
  pagesMissingFromNavigation,
  type SiteProblem,
} from '../docs-site/index.ts';

/** Caches shared by every run of a process: page facts by content, and each base commit's problems. */
export interface SiteCaches {
  facts: PageFactsCache;
  baseProblems: Map<string, Promise<SiteProblem[]>>;
}

const maximumBaseCommits = 32;

export function createSiteCaches(): SiteCaches {
  return { facts: new PageFactsCache(), baseProblems: new Map() };
}

/** What one run changed, as validation needs it. */
export interface SiteChanges {
  changed: ReadonlySet<string>;
  created: ReadonlySet<string>;
  /** The content of each changed file before the run first changed it. */
  originals: ReadonlyMap<string, string>;
  /** A moved file's new path → its path on the base commit. */
  renamedFrom: ReadonlyMap<string, string>;
}

export interface SiteValidation {
  /** Problems this run introduced. */
  problems: SiteProblem[];
  /** Problems the base commit already had (not the run's to fix, unless asked), at their base lines. */
  alreadyPresent: SiteProblem[];
  /** What the site model does not understand here: those parts were not checked. */
  unsupported: readonly string[];
}

/**
 * The documentation site of one run's worktree: its model, kept up to date as the tools change files
 * (they report each change, so nothing is walked or read again), and validation that reports only what
 * the run introduced: the same checks on the base commit (cached per commit, so a second run on the
 * same base pays nothing) give the problems that were already there.
 */
export class SiteSession {
  readonly files: DirectoryFiles;
  readonly #caches: SiteCaches;
  readonly #baseProblems: Promise<SiteProblem[]>;
  #current: Promise<AnalyzedSite> | null = null;

  private constructor(files: DirectoryFiles, caches: SiteCaches, baseProblems: Promise<SiteProblem[]>) {
    this.files = files;
    this.#caches = caches;
    this.#baseProblems = baseProblems;
  }

  /** Opens the site of a worktree whose changes are measured against `baseCommit`. */
  static async open(options: {
    root: string;
    baseCommit: string;
    maximumFileBytes: number;
    caches: SiteCaches;
  }): Promise<SiteSession> {
    const { root, baseCommit, maximumFileBytes, caches } = options;
    const files = await DirectoryFiles.list(root, maximumFileBytes);
    const key = `${baseCommit}\0${maximumFileBytes}`;
    let baseProblems = caches.baseProblems.get(key);
    if (baseProblems === undefined) {
      baseProblems = checkCommit(root, baseCommit, maximumFileBytes, caches.facts);
      // A failed check is not kept: the next run tries again.
      baseProblems.catch(() => caches.baseProblems.delete(key));
      caches.baseProblems.set(key, baseProblems);
      if (caches.baseProblems.size > maximumBaseCommits) {
        const oldest = caches.baseProblems.keys().next().value;
        if (oldest !== undefined) caches.baseProblems.delete(oldest);
      }
    }
    return new SiteSession(files, caches, baseProblems);
  }

  /** The site as it is now. */
  current(): Promise<AnalyzedSite> {
    this.#current ??= analyzeSite(this.files, this.#caches.facts);
    return this.#current;
  }

  /** A tool wrote `path`. */
  changed(path: string): void {
    this.files.changed(path);
    this.#current = null;
  }

  /** A tool deleted (or moved away) `path`. */
  removed(path: string): void {
    this.files.removed(path);
    this.#current = null;
  }

  async validate(changes: SiteChanges): Promise<SiteValidation> {
    const { model, source } = await this.current();
    const found = await checkSite(model, source);
    found.push(...pagesMissingFromNavigation(model, changes.created));
    const base = await this.#baseProblems;
    const problems = introducedProblems(found, base, changes.renamedFrom);
    // Syntax is checked in changed pages only (the full parse is slow), against their own earlier text.
    for (const file of [...changes.changed].sort()) {
      if (!isPagePath(file)) continue;
      const text = await this.files.read(file);
      if (text === null) continue;
      const original = changes.originals.get(file);
      const before = original === undefined ? [] : checkPageSyntax(file, original);
      problems.push(...introducedProblems(checkPageSyntax(file, text), before));
    }
    return { problems, alreadyPresent: base, unsupported: model.unsupported };
  }

  /** Where the site links to `file` or names it in navigation, from the site as it is now. */
  async inbound(file: string): Promise<Array<{ file: string; line: number; text: string }>> {
    const { model, source } = await this.current();
    const places: Array<{ file: string; line: number; text: string }> = [];
    for (const entry of model.navigation) {
      if (entry.target === file) {
        places.push({ file: entry.file, line: entry.line, text: `navigation entry "${entry.reference}"` });
      }
    }
    for (const page of [...model.pages.keys(), ...model.partials]) {
      if (page === file) continue;
      const facts = await source.pageFacts(page);
      for (const link of facts?.links ?? []) {
        const target = model.resolveLink(page, link.url);
        if (target.kind === 'file' && target.file === file) {
          places.push({ file: page, line: link.line, text: `link "${link.url}"` });
        }
      }
    }
    return places;
  }
}

async function checkCommit(
  root: string,
  commit: string,
  maximumFileBytes: number,
  facts: PageFactsCache,
): Promise<SiteProblem[]> {
  const files = await CommitFiles.list(root, commit, maximumFileBytes);
  await files.preload(files.paths.filter(isPagePath));
  const { model, source } = await analyzeSite(files, facts);
  return checkSite(model, source);
}

const maximumListedPresent = 20;

/** The report the model (and the pull request body) sees. */
export function formatProblems(problems: readonly SiteProblem[]): string {
  if (problems.length === 0) return 'No problems found.';
  const lines = problems.map(
    (problem) =>
      `- ${problem.file}:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}: ${problem.message}`,
  );
  return `${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

/** The validation report: the run's problems, then what was already there and what was not checked. */
export function formatValidation(validation: SiteValidation): string {
  const sections = [formatProblems(validation.problems)];
  const present = validation.alreadyPresent;
  if (present.length > 0) {
    const shown = present.slice(0, maximumListedPresent);
    sections.push(
      `${present.length} problem${present.length === 1 ? ' was' : 's were'} already present on the base branch; they are not yours to fix unless asked:\n${formatProblems(shown).replace(/^.*\n/, '')}${present.length > shown.length ? `\n- ... and ${present.length - shown.length} more` : ''}`,
    );
  }
  if (validation.unsupported.length > 0) {
    sections.push(`Not checked (not understood by Quire): ${validation.unsupported.join('; ')}`);
  }
  return sections.join('\n');
}
