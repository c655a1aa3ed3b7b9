import {
  type AnalyzedSite,
  analyzeSite,
  CommitFiles,
  checkPageSyntax,
  checkSite,
  introducedProblems,
  isPagePath,
  PageFactsCache,
  pagesMissingFromNavigation,
  problemsAfterPageEdits,
  type SiteModel,
  type SiteProblem,
  WorktreeFiles,
} from '../docs-site/index.ts';

/** Caches shared by every run of a process: page facts by content, and a few commits' sites. */
export interface SiteCaches {
  facts: PageFactsCache;
  /** A commit's files (held in memory), its site, and its problems once checked; newest kept. */
  commits: Map<string, Promise<CommitSite>>;
}

interface CommitSite {
  site: AnalyzedSite;
  problems: Promise<SiteProblem[]> | null;
}

/** A large site's commit holds its text files in memory (tens of MB): a few are enough for busy repositories. */
const maximumCachedCommits = 4;

export function createSiteCaches(): SiteCaches {
  return { facts: new PageFactsCache(), commits: new Map() };
}

/** A commit's site, read from git without a checkout (one `git cat-file --batch`), cached per commit. */
function commitSite(
  caches: SiteCaches,
  root: string,
  commit: string,
  maximumFileBytes: number,
): Promise<CommitSite> {
  const key = `${commit}\0${maximumFileBytes}`;
  const cached = caches.commits.get(key);
  if (cached !== undefined) {
    // Most recently used last, so eviction takes the oldest.
    caches.commits.delete(key);
    caches.commits.set(key, cached);
    return cached;
  }
  const loading = (async (): Promise<CommitSite> => {
    const files = await CommitFiles.list(root, commit, maximumFileBytes);
    await files.preload();
    return { site: await analyzeSite(files, caches.facts), problems: null };
  })();
  // A failed read is not kept: the next run tries again.
  loading.catch(() => caches.commits.delete(key));
  caches.commits.set(key, loading);
  if (caches.commits.size > maximumCachedCommits) {
    const oldest = caches.commits.keys().next().value;
    if (oldest !== undefined) caches.commits.delete(oldest);
  }
  return loading;
}

function commitProblems(commit: CommitSite): Promise<SiteProblem[]> {
  commit.problems ??= checkSite(commit.site.model, commit.site.source);
  return commit.problems;
}

/** What one run changed, as validation needs it. */
export interface SiteChanges {
  changed: ReadonlySet<string>;
  created: ReadonlySet<string>;
  removed: ReadonlySet<string>;
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
  readonly files: WorktreeFiles;
  readonly #caches: SiteCaches;
  readonly #start: CommitSite;
  readonly #base: CommitSite;
  #current: Promise<AnalyzedSite> | null = null;

  private constructor(files: WorktreeFiles, caches: SiteCaches, start: CommitSite, base: CommitSite) {
    this.files = files;
    this.#caches = caches;
    this.#start = start;
    this.#base = base;
  }

  /**
   * Opens the site of a worktree checked out at `startCommit` (the branch of a follow-up, or the base
   * itself), whose changes are measured against `baseCommit`.
   */
  static async open(options: {
    root: string;
    baseCommit: string;
    startCommit: string;
    maximumFileBytes: number;
    caches: SiteCaches;
  }): Promise<SiteSession> {
    const { root, maximumFileBytes, caches } = options;
    const start = await commitSite(caches, root, options.startCommit, maximumFileBytes);
    const base =
      options.baseCommit === options.startCommit
        ? start
        : await commitSite(caches, root, options.baseCommit, maximumFileBytes);
    const files = new WorktreeFiles(root, maximumFileBytes, start.site.source.files);
    return new SiteSession(files, caches, start, base);
  }

  /** The site as it is now. */
  current(): Promise<AnalyzedSite> {
    if (this.files.changedCount === 0) return Promise.resolve(this.#start.site);
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
    const { model, found } = await this.#currentProblems(changes);
    const base = await commitProblems(this.#base);
    const problems = introducedProblems(found, base, changes.renamedFrom);
    // Syntax is checked in changed pages only (the full parse is slow), against their own earlier text.
    for (const file of [...changes.changed].sort()) {
      if (!isPagePath(file) && !/\.(rst|adoc|ipynb)$/i.test(file)) continue;
      const text = await this.files.read(file);
      if (text === null) continue;
      const original = changes.originals.get(file);
      const before = original === undefined ? [] : checkPageSyntax(file, original);
      problems.push(...introducedProblems(checkPageSyntax(file, text), before));
    }
    return { problems, alreadyPresent: base, unsupported: model.unsupported };
  }

  /**
   * Every problem of the site as it is now. After edits that leave pages, routes and navigation as
   * they were (the usual edit of a page's text), the start commit's model and problems are kept and
   * only the edited pages are checked again; otherwise the model is built anew.
   */
  async #currentProblems(changes: SiteChanges): Promise<{ model: SiteModel; found: SiteProblem[] }> {
    const onlyEdits =
      changes.created.size === 0 && changes.removed.size === 0 && changes.renamedFrom.size === 0;
    if (onlyEdits && this.files.changedCount > 0) {
      const start = this.#start.site;
      const edited = await problemsAfterPageEdits({
        model: start.model,
        before: start.source,
        problemsBefore: await commitProblems(this.#start),
        files: this.files,
        cache: this.#caches.facts,
        edited: changes.changed,
      });
      if (edited !== null) return { model: start.model, found: edited.problems };
    }
    const { model, source } = await this.current();
    const found = await checkSite(model, source);
    found.push(...pagesMissingFromNavigation(model, changes.created));
    return { model, found };
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
        const target = model.resolveLink(page, link.url, link);
        if (target.kind === 'file' && target.file === file) {
          places.push({ file: page, line: link.line, text: `link "${link.url}"` });
        }
      }
    }
    return places;
  }
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
