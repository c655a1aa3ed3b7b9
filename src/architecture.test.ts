/**
 * The layering rules of STYLE.md, checked over the import graph of src/ (test files excluded: they
 * may reach anything to set up a case):
 * - top-level folders import downwards only: no cycle between them;
 * - the edges (src/http/, src/dashboard/) receive services and import no src/db/ file and no store;
 * - code outside src/analytics/ imports a concept folder of it only through its index.ts, and those
 *   folders do not import each other in a cycle either.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const sourceRoot = import.meta.dirname;

interface ImportEdge {
  /** Paths relative to src/, with forward slashes. */
  from: string;
  to: string;
}

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function importEdges(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(sourceRoot)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(specifierPattern)) {
      const specifier = match[1] ?? '';
      const target = path.resolve(path.dirname(file), specifier);
      edges.push({ from: relativeToSource(file), to: relativeToSource(target) });
    }
  }
  return edges;
}

function relativeToSource(file: string): string {
  return path.relative(sourceRoot, file).split(path.sep).join('/');
}

/** The folder of `file` under `prefix` (`'http'` for `http/routes/x.ts`); null for other files. */
function folderUnder(prefix: string, file: string): string | null {
  if (!file.startsWith(prefix)) return null;
  const parts = file.slice(prefix.length).split('/');
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** Every cycle's folders, as `a -> b -> a`, found by depth-first search over the folder graph. */
function folderCycles(edges: ImportEdge[], prefix: string): string[] {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    const from = folderUnder(prefix, edge.from);
    const to = folderUnder(prefix, edge.to);
    if (from === null || to === null || from === to) continue;
    graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  const cycles: string[] = [];
  const finished = new Set<string>();
  const visit = (folder: string, trail: string[]): void => {
    const seen = trail.indexOf(folder);
    if (seen !== -1) {
      cycles.push([...trail.slice(seen), folder].join(' -> '));
      return;
    }
    if (finished.has(folder)) return;
    for (const next of graph.get(folder) ?? []) visit(next, [...trail, folder]);
    finished.add(folder);
  };
  for (const folder of graph.keys()) visit(folder, []);
  return cycles;
}

describe('architecture', () => {
  const edges = importEdges();

  it('finds the imports it checks', () => {
    assert.ok(edges.some((edge) => edge.from === 'main.ts'));
  });

  it('has no cycle between the top-level folders of src/', () => {
    assert.deepEqual(folderCycles(edges, ''), []);
  });

  it('has no cycle between the concept folders of src/analytics/', () => {
    assert.deepEqual(folderCycles(edges, 'analytics/'), []);
  });

  it('keeps the HTTP API and the dashboard away from the database and the stores', () => {
    const reaching = edges.filter(
      (edge) =>
        (edge.from.startsWith('http/') || edge.from.startsWith('dashboard/')) &&
        (edge.to.startsWith('db/') || edge.to.endsWith('-store.ts') || edge.to.includes('-store-')),
    );
    assert.deepEqual(reaching, []);
  });

  it('reaches the analytics folders from outside only through their entry files', () => {
    const reaching = edges.filter((edge) => {
      const folder = folderUnder('analytics/', edge.to);
      return (
        folder !== null &&
        !edge.from.startsWith(`analytics/${folder}/`) &&
        !edge.to.endsWith(`/${folder}/index.ts`)
      );
    });
    assert.deepEqual(reaching, []);
  });
});
