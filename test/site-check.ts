/** The docs-site checks on a site written in a test: its model and problems, and problems as lines. */
import {
  analyzeSite,
  checkSite,
  memoryFiles,
  PageFactsCache,
  type SiteProblem,
} from '../src/docs-site/index.ts';

export async function checkFiles(files: Record<string, string>) {
  const site = await analyzeSite(memoryFiles(files), new PageFactsCache());
  const problems = await checkSite(site.model, site.source);
  return { model: site.model, problems };
}

/** `file:line: message` for each problem, for one readable assertion. */
export function problemLines(problems: readonly SiteProblem[]): string[] {
  return problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`);
}
