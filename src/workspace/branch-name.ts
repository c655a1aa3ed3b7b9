/**
 * The working branch of a job: `quire/<short-id>-<slug>`, where the short id is the first eight
 * characters of the job id and the slug comes from the job's first instruction.
 *
 *   branchName('0f6c2b9e-...', 'Fix the typo in Quickstart!') // 'quire/0f6c2b9e-fix-the-typo-in-quickstart'
 */
export function branchName(jobId: string, prompt: string): string {
  const shortId =
    jobId
      .replace(/[^a-zA-Z0-9]/g, '')
      .slice(0, 8)
      .toLowerCase() || 'job';
  return `quire/${shortId}-${slugify(prompt)}`;
}

const maximumSlugLength = 40;

export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > maximumSlugLength) {
      if (slug === '') slug = word.slice(0, maximumSlugLength);
      break;
    }
    slug = next;
  }
  return slug === '' ? 'changes' : slug;
}
