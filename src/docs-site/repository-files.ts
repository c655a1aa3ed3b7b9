import { spawn } from 'node:child_process';
import type { Dirent } from 'node:fs';
import { lstat, open, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { baseEnvironment, runGit } from '../workspace/git.ts';
import { folderOf, joinInside } from './link-urls.ts';
import type { RepositoryFiles } from './site-model.ts';

const skippedDirectories = new Set(['.git', 'node_modules']);
/** Files that are never text: not read from a commit at all. */
const binaryExtension =
  /\.(png|jpe?g|gif|webp|avif|ico|bmp|tiff?|pdf|zip|gz|tgz|bz2|xz|7z|jar|woff2?|ttf|otf|eot|mp[34]|m4a|mov|webm|ogg|wav|wasm|psd|sketch|fig)$/i;
const decoder = new TextDecoder('utf-8', { fatal: true });
/** Links to links are followed this far (a loop of links ends here). */
const maximumLinkHops = 8;

/**
 * The file a symbolic link in the repository names, when it is another path of the repository
 * (`latest.yml -> v26.07.yml`, `docs/index.md -> ../README.md`): the link's text read from the link's
 * folder, never an absolute path nor one that climbs out. Builds read such files through the link.
 */
function linkTarget(link: string, target: string): string | null {
  if (target.startsWith('/') || target.includes('\0')) return null;
  return joinInside(folderOf(link), target);
}

/** True for content a text editor should not touch: a NUL byte, or bytes that are not UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8000).includes(0)) return true;
  try {
    decoder.decode(bytes);
    return false;
  } catch {
    return true;
  }
}

function compareCodePoints(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Yields the relative paths (forward slashes) of regular files under `directory`, sorted, without
 * following symbolic links (so a link cannot lead the walk outside the repository); with
 * `includeLinks`, links themselves are listed too (they exist, even if they are never followed).
 */
export async function* walkFiles(
  root: string,
  directory: string,
  prefix: string,
  options: { includeLinks?: boolean; links?: Set<string> } = {},
): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(join(root, directory), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((left, right) => compareCodePoints(left.name, right.name));
  for (const entry of entries) {
    const relativePath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (skippedDirectories.has(entry.name.toLowerCase())) continue;
      yield* walkFiles(root, join(directory, entry.name), relativePath, options);
    } else if (entry.isFile() || (options.includeLinks === true && entry.isSymbolicLink())) {
      if (entry.isSymbolicLink()) options.links?.add(relativePath);
      yield relativePath;
    }
  }
}

/**
 * The files of a worktree on disk. The listing is taken once; the agent's tools tell it what they
 * change (`changed`, `removed`), so a validation after an edit reads only what the edit touched.
 * Only regular files are read, and symbolic links as the repository file they name (never a path
 * outside the repository).
 */
export class DirectoryFiles implements RepositoryFiles {
  readonly #root: string;
  readonly #maximumFileBytes: number;
  readonly #present: Set<string>;
  readonly #links: Set<string>;
  readonly #texts = new Map<string, Promise<string | null>>();
  #sorted: string[] | null = null;

  private constructor(root: string, maximumFileBytes: number, present: Set<string>, links: Set<string>) {
    this.#root = root;
    this.#maximumFileBytes = maximumFileBytes;
    this.#present = present;
    this.#links = links;
  }

  static async list(root: string, maximumFileBytes: number): Promise<DirectoryFiles> {
    const present = new Set<string>();
    const links = new Set<string>();
    for await (const file of walkFiles(root, '', '', { includeLinks: true, links })) present.add(file);
    return new DirectoryFiles(root, maximumFileBytes, present, links);
  }

  get paths(): readonly string[] {
    this.#sorted ??= [...this.#present].sort(compareCodePoints);
    return this.#sorted;
  }

  has(path: string): boolean {
    return this.#present.has(path);
  }

  read(path: string): Promise<string | null> {
    if (!this.#present.has(path)) return Promise.resolve(null);
    // A link is read as the file it names, each time (that file's text may change under it).
    if (this.#links.has(path))
      return this.#linkedFile(path).then((file) => (file === null ? null : this.read(file)));
    let text = this.#texts.get(path);
    if (text === undefined) {
      text = this.#readFromDisk(path);
      this.#texts.set(path, text);
    }
    return text;
  }

  async readHead(path: string, bytes: number): Promise<string | null> {
    const file = await this.#linkedFile(path);
    return file === null ? null : readRegularHead(join(this.#root, file), bytes);
  }

  /** The listed file `path` leads to through links, or null (out of the repository, missing, a loop). */
  async #linkedFile(path: string): Promise<string | null> {
    let current = path;
    for (let hops = 0; this.#links.has(current); hops += 1) {
      if (hops >= maximumLinkHops) return null;
      const target = linkTarget(current, await readlink(join(this.#root, current), 'utf8').catch(() => '/'));
      if (target === null) return null;
      current = target;
    }
    return this.#present.has(current) ? current : null;
  }

  /** A file was written (created or changed). */
  changed(path: string): void {
    if (!this.#present.has(path)) this.#sorted = null;
    this.#present.add(path);
    this.#links.delete(path);
    this.#texts.delete(path);
  }

  /** A file was deleted (or moved away). */
  removed(path: string): void {
    if (this.#present.delete(path)) this.#sorted = null;
    this.#links.delete(path);
    this.#texts.delete(path);
  }

  #readFromDisk(path: string): Promise<string | null> {
    return readRegularText(join(this.#root, path), this.#maximumFileBytes);
  }
}

interface TreeEntry {
  object: string;
  size: number;
}

/**
 * The files of one commit, read from git without a checkout (the base commit of a run whose worktree
 * is already at its branch). Texts are read on demand, all the wanted ones in one `git cat-file --batch`.
 */
export class CommitFiles implements RepositoryFiles {
  readonly paths: readonly string[];
  readonly #cwd: string;
  readonly #entries: Map<string, TreeEntry>;
  readonly #maximumFileBytes: number;
  readonly #texts = new Map<string, Promise<string | null>>();

  private constructor(cwd: string, entries: Map<string, TreeEntry>, maximumFileBytes: number) {
    this.#cwd = cwd;
    this.#entries = entries;
    this.#maximumFileBytes = maximumFileBytes;
    this.paths = [...entries.keys()].sort(compareCodePoints);
  }

  /** Lists `commit` in the repository at `cwd` (a worktree or a bare mirror). */
  static async list(cwd: string, commit: string, maximumFileBytes: number): Promise<CommitFiles> {
    const output = await runGit(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], { cwd });
    const entries = new Map<string, TreeEntry>();
    for (const record of output.split('\0')) {
      // "<mode> SP <type> SP <object> SP+ <size> TAB <path>"
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, object, size] = record.slice(0, tab).split(/ +/);
      const path = record.slice(tab + 1);
      if (type !== 'blob' || object === undefined || mode === '160000') continue;
      if (path.split('/').some((segment) => skippedDirectories.has(segment.toLowerCase()))) continue;
      // A symbolic link is read as the repository file it names, if it names one.
      entries.set(path, { object, size: mode === '120000' ? -1 : Number(size) });
    }
    return new CommitFiles(cwd, entries, maximumFileBytes);
  }

  has(path: string): boolean {
    return this.#entries.has(path);
  }

  read(path: string): Promise<string | null> {
    const entry = this.#entries.get(path);
    // A link is read as the file it names (not cached under the link's path).
    if (entry !== undefined && entry.size < 0)
      return this.#linkedFile(path).then((file) => (file === null ? null : this.read(file)));
    const cached = this.#texts.get(path);
    if (cached !== undefined) return cached;
    if (entry === undefined || entry.size < 0 || entry.size > this.#maximumFileBytes)
      return Promise.resolve(null);
    const text = readBlobs(this.#cwd, [entry.object]).then((blobs) => decodeText(blobs.get(entry.object)));
    this.#texts.set(path, text);
    return text;
  }

  async readHead(path: string, bytes: number): Promise<string | null> {
    const file = await this.#linkedFile(path);
    const entry = file === null ? undefined : this.#entries.get(file);
    if (entry === undefined) return null;
    const blob = (await readBlobs(this.#cwd, [entry.object])).get(entry.object);
    return blob === undefined ? null : decodeHead(blob.subarray(0, bytes));
  }

  /** The file `path` leads to through links (a link's blob is the path it names), or null. */
  async #linkedFile(path: string): Promise<string | null> {
    let current = path;
    for (let hops = 0; ; hops += 1) {
      const entry = this.#entries.get(current);
      if (entry === undefined) return null;
      if (entry.size >= 0) return current;
      if (hops >= maximumLinkHops) return null;
      const blob = (await readBlobs(this.#cwd, [entry.object])).get(entry.object);
      const target = linkTarget(current, blob?.toString('utf8') ?? '/');
      if (target === null) return null;
      current = target;
    }
  }

  /**
   * Reads the texts of many files in one git process (a whole site before a full check). Without
   * `paths`: every file that may be text (images, fonts, archives and media are known not to be).
   */
  async preload(
    paths: Iterable<string> = this.paths.filter((path) => !binaryExtension.test(path)),
  ): Promise<void> {
    const wanted = new Map<string, string>();
    for (const path of paths) {
      const entry = this.#entries.get(path);
      if (entry === undefined || this.#texts.has(path)) continue;
      if (entry.size < 0 || entry.size > this.#maximumFileBytes) continue;
      wanted.set(path, entry.object);
    }
    if (wanted.size === 0) return;
    const blobs = await readBlobs(this.#cwd, [...new Set(wanted.values())]);
    for (const [path, object] of wanted)
      this.#texts.set(path, Promise.resolve(decodeText(blobs.get(object))));
  }
}

function decodeText(bytes: Buffer | undefined): string | null {
  if (bytes === undefined || isBinary(bytes)) return null;
  return decoder.decode(bytes);
}

/** `git cat-file --batch` for many objects at once: "<object> blob <size>\n<content>\n" each. */
function readBlobs(cwd: string, objects: string[]): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd,
      env: baseEnvironment(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`git cat-file --batch failed (exit ${code ?? 'signal'})`));
        return;
      }
      const output = Buffer.concat(chunks);
      const blobs = new Map<string, Buffer>();
      let offset = 0;
      while (offset < output.length) {
        const newline = output.indexOf(10, offset);
        if (newline < 0) break;
        const [object, type, size] = output.subarray(offset, newline).toString('latin1').split(' ');
        offset = newline + 1;
        if (type === 'missing' || object === undefined) continue;
        const length = Number(size);
        if (type === 'blob') blobs.set(object, output.subarray(offset, offset + length));
        offset += length + 1;
      }
      resolve(blobs);
    });
    child.stdin.end(`${objects.join('\n')}\n`);
  });
}

/** Files with some changed on top (a text, or null for a deleted file): a change tried without writing it. */
export class OverlayFiles implements RepositoryFiles {
  readonly paths: readonly string[];
  readonly #base: RepositoryFiles;
  readonly #changes: ReadonlyMap<string, string | null>;

  constructor(base: RepositoryFiles, changes: ReadonlyMap<string, string | null>) {
    this.#base = base;
    this.#changes = changes;
    const paths = new Set(base.paths);
    for (const [path, text] of changes) {
      if (text === null) paths.delete(path);
      else paths.add(path);
    }
    this.paths = [...paths].sort(compareCodePoints);
  }

  has(path: string): boolean {
    const changed = this.#changes.get(path);
    return changed === undefined ? this.#base.has(path) : changed !== null;
  }

  read(path: string): Promise<string | null> {
    const changed = this.#changes.get(path);
    return changed === undefined ? this.#base.read(path) : Promise.resolve(changed);
  }

  readHead(path: string, bytes: number): Promise<string | null> {
    const changed = this.#changes.get(path);
    if (changed !== undefined) return Promise.resolve(changed === null ? null : changed.slice(0, bytes));
    return this.#base.readHead?.(path, bytes) ?? Promise.resolve(null);
  }
}

/** Files held in memory (tests, and checks of generated content). */
export function memoryFiles(files: Readonly<Record<string, string>>): RepositoryFiles {
  const empty: RepositoryFiles = { paths: [], has: () => false, read: async () => null };
  return new OverlayFiles(empty, new Map(Object.entries(files)));
}

/**
 * A worktree's files as the commit it started from, plus what the tools changed since: a changed
 * file is read from disk (regular files only, within the size limit), a removed one is gone. Nothing
 * else is walked or read again, so a check after an edit costs what the edit touched.
 */
export class WorktreeFiles implements RepositoryFiles {
  readonly #root: string;
  readonly #maximumFileBytes: number;
  readonly #start: RepositoryFiles;
  /** Changed paths: a reader of the file on disk, or null once removed. */
  readonly #changes = new Map<string, { text: Promise<string | null> | null } | null>();
  #paths: string[] | null = null;

  constructor(root: string, maximumFileBytes: number, start: RepositoryFiles) {
    this.#root = root;
    this.#maximumFileBytes = maximumFileBytes;
    this.#start = start;
  }

  /** Whether anything changed since the start commit. */
  get changedCount(): number {
    return this.#changes.size;
  }

  get paths(): readonly string[] {
    if (this.#paths === null) {
      const paths = new Set(this.#start.paths);
      for (const [path, change] of this.#changes) {
        if (change === null) paths.delete(path);
        else paths.add(path);
      }
      this.#paths = [...paths].sort(compareCodePoints);
    }
    return this.#paths;
  }

  has(path: string): boolean {
    const change = this.#changes.get(path);
    return change === undefined ? this.#start.has(path) : change !== null;
  }

  read(path: string): Promise<string | null> {
    const change = this.#changes.get(path);
    if (change === undefined) return this.#start.read(path);
    if (change === null) return Promise.resolve(null);
    change.text ??= readRegularText(join(this.#root, path), this.#maximumFileBytes);
    return change.text;
  }

  readHead(path: string, bytes: number): Promise<string | null> {
    const change = this.#changes.get(path);
    if (change === undefined) return this.#start.readHead?.(path, bytes) ?? Promise.resolve(null);
    return change === null ? Promise.resolve(null) : readRegularHead(join(this.#root, path), bytes);
  }

  /** A file was written (created or changed). */
  changed(path: string): void {
    if (!this.has(path)) this.#paths = null;
    this.#changes.set(path, { text: null });
  }

  /** A file was deleted (or moved away). */
  removed(path: string): void {
    if (this.has(path)) this.#paths = null;
    this.#changes.set(path, null);
  }
}

const headDecoder = new TextDecoder('utf-8');

/** The first bytes of a text file as text; null for a binary one (a NUL byte). */
function decodeHead(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  // A character the cut split is dropped (the decoder writes U+FFFD for it).
  return headDecoder.decode(bytes).replace(/\uFFFD$/, '');
}

async function readRegularHead(absolute: string, bytes: number): Promise<string | null> {
  const status = await lstat(absolute).catch(() => null);
  if (status === null || !status.isFile()) return null;
  const handle = await open(absolute, 'r').catch(() => null);
  if (handle === null) return null;
  try {
    const buffer = Buffer.alloc(Math.min(bytes, status.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return decodeHead(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

async function readRegularText(absolute: string, maximumFileBytes: number): Promise<string | null> {
  const status = await lstat(absolute).catch(() => null);
  if (status === null || !status.isFile() || status.size > maximumFileBytes) return null;
  const bytes = await readFile(absolute).catch(() => null);
  if (bytes === null || isBinary(bytes)) return null;
  return decoder.decode(bytes);
}
